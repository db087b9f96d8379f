// The session baton makes for an opencode tab before its TUI starts (plugins/opencode/
// new-session.ts), the parts that need no opencode: its id has opencode's own shape and
// order (checked against ids opencode 1.18.33 itself made, with their creation times), two
// tabs never get the same one, and the file `opencode import` takes is an empty session of
// the tab's directory with opencode's default title.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { emptySessionFile, newOpencodeSessionId } from '../../plugins/opencode/new-session.js';

const s = suite('opencode new session');

s("ids: opencode's shape, its time digits for the same creation time, newer sorts first, random tail", () => {
  // Made by opencode 1.18.33 (session/new over ACP), with the time_created it stored.
  assert.is(newOpencodeSessionId(1796087832517).slice(0, 16), 'ses_dd0d2a03affe');
  assert.is(newOpencodeSessionId(1796087843078).slice(0, 16), 'ses_dd0d276f9ffe');
  const id = newOpencodeSessionId();
  assert.match(id, /^ses_[0-9a-f]{12}[0-9A-Za-z]{14}$/);
  assert.ok(newOpencodeSessionId(1796087843078) < newOpencodeSessionId(1796087832517), 'descending: the newer id sorts first');
  const many = new Set(Array.from({ length: 200 }, () => newOpencodeSessionId(1796087832517)));
  assert.is(many.size, 200, 'the same millisecond still gives different ids');
});

s("the import file: an empty session of the directory, opencode's default title, opencode's fields", () => {
  const file = JSON.parse(emptySessionFile('ses_dd0d2a03affeABCDEFGHIJKLMN', '/work/repo', 1796087832517)) as {
    info: Record<string, unknown>;
    messages: unknown[];
  };
  assert.equal(file.messages, []);
  assert.equal(file.info, {
    id: 'ses_dd0d2a03affeABCDEFGHIJKLMN',
    slug: 'baton-ijklmn',
    projectID: 'global',
    directory: '/work/repo',
    title: 'New session - 2026-12-01T01:17:12.517Z',
    version: '1.18.33',
    time: { created: 1796087832517, updated: 1796087832517 },
  });
});

s.run();
