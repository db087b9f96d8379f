// Listing conversations: every one, most recent first, with title, cwd, an entry count
// read from the log's tail (even past a torn line or a very long last entry), and
// whether a live baton has it open.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConversation } from '../../src/transcript/store.js';
import type { OpenConversation } from '../../src/transcript/store.js';
import { lastSeqOf, listConversations } from '../../src/transcript/store-list.js';

const user = { type: 'user' as const, name: 'ana', device: 'laptop' };
let home = '';
const open: OpenConversation[] = [];

async function make(title: string, turns: number) {
  const c = await createConversation(home, { cwd: '/work/repo', title, user });
  open.push(c);
  for (let i = 0; i < turns; i++) {
    c.transcript.apply({ type: 'user_text', text: `q${i}` });
    c.transcript.apply({ type: 'turn_end' });
  }
  return c;
}

const l = suite('store list');
l.before.each(() => {
  home = mkdtempSync(join(tmpdir(), 'baton-list-'));
});
l.after.each(async () => {
  for (const c of open.splice(0)) await c.close();
  rmSync(home, { recursive: true, force: true });
});

l('every conversation, most recently updated first, open ones marked', async () => {
  const a = await make('first', 2);
  await a.close();
  const b = await make('second', 5);
  b.transcript.apply({ type: 'notice', text: 'x'.repeat(300_000) }); // a last line longer than the tail window
  b.sync();
  await b.meta.update({ title: 'second, renamed', lastAgent: { harness: 'codex', model: 'gpt-5' } });
  const list = await listConversations(home);
  assert.equal(
    list.map((x) => [x.id, x.title, x.entries, x.open]),
    [
      [b.id, 'second, renamed', 11, true],
      [a.id, 'first', 4, false],
    ],
  );
  assert.is(list[0]!.cwd, '/work/repo');
  assert.equal(list[0]!.lastAgent, { harness: 'codex', model: 'gpt-5' });
  assert.ok(list[0]!.updated >= list[1]!.updated);
  assert.ok(Date.parse(list[1]!.created) <= Date.parse(list[1]!.updated));
});

l('no home, or things in conversations/ that are not conversations, list as nothing', async () => {
  assert.equal(await listConversations(join(home, 'nothing-here')), []);
  mkdirSync(join(home, 'conversations', '.new-abcd1234-0000'), { recursive: true });
  mkdirSync(join(home, 'conversations', 'abcd1234')); // an id-shaped directory without a log
  assert.equal(await listConversations(home), []);
});

l('the entry count skips a torn tail and finds the last whole entry', async () => {
  const c = await make('c', 2);
  await c.close();
  const log = join(c.dir, 'transcript.jsonl');
  appendFileSync(log, '{"seq":5,"kind":"no');
  assert.is(lastSeqOf(log), 4);
  assert.is((await listConversations(home))[0]!.entries, 4);
});

l('an empty conversation counts zero entries', async () => {
  const c = await make('empty', 0);
  assert.is(lastSeqOf(join(c.dir, 'transcript.jsonl')), 0);
});

l.run();
