// src/tui/wrap.ts: baton's own texts wrapped to a dialog's or a notice's width.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { wrapLines } from '../../src/tui/wrap.js';

const s = suite('wrapLines');

s('wraps at spaces, keeps short and empty lines, never exceeds the width', () => {
  const text = ['The worktree of the fork mx2v57405egm (baton/mx2v57405egm) stays: baton worktree list shows it.', '', 'y: yes'];
  const out = wrapLines(text, 40);
  assert.equal(out, ['The worktree of the fork mx2v57405egm', '(baton/mx2v57405egm) stays: baton', 'worktree list shows it.', '', 'y: yes']);
  for (const l of out) assert.ok(l.length <= 40, l);
});

s('a word longer than the width (a path) is cut mid-word rather than left whole', () => {
  const path = 'at /tmp/a/very/long/path/that/does/not/fit/anywhere/in/twenty/columns';
  const out = wrapLines([path], 20);
  assert.ok(out.length > 1);
  for (const l of out) assert.ok(l.length <= 20, l);
  assert.is(out.join(''), path, 'nothing lost');
});

s('the indentation of a first line stays (key columns in a dialog); control characters go', () => {
  assert.equal(wrapLines(['  t  new tab', 'a\x1b[31mred\x1b[0m\x07'], 30), ['  t  new tab', 'ared']);
});

s.run();
