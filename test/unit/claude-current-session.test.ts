// Which session a running Claude Code process is in, as it says in <config dir>/sessions/
// <pid>.json (plugins/claude/current-session.ts): what a tab follows after /clear moves its
// claude to a new session. The files here name this test's own process (its pid, its start
// time from /proc), as claude's name claude's: the file's session is the answer, and the
// new one once the file is rewritten; a file left by an earlier process with the same pid
// (another start time) or a headless claude's is not; no file, no answer.
// (On a real claude: test/real/tui-new-session.test.ts.)
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readStat } from '../../src/proc/index.js';
import { currentClaudeSession } from '../../plugins/claude/current-session.js';

const A = '3f1c2b7e-8a41-4d2f-9b6e-1c0d5e7f9a21';
const B = 'e22a2f75-d7f3-4b31-b26a-e0ac612e0e06';

let dir = '';
const self = readStat('self')!;
const group = self.pgrp;
const write = (rec: Record<string, unknown>) => writeFileSync(join(dir, 'sessions', `${process.pid}.json`), JSON.stringify(rec));
/** What claude 2.1 writes, for this process. */
const own = (sessionId: string) => ({
  pid: process.pid,
  sessionId,
  cwd: '/w',
  startedAt: Date.now(),
  procStart: String(self.startTicks),
  version: '2.1.197',
  kind: 'interactive',
  status: 'idle',
});

const s = suite('claude current session');
s.before.each(() => {
  dir = mkdtempSync(join(tmpdir(), 'baton-claude-current-'));
  mkdirSync(join(dir, 'sessions'));
});
s.after.each(() => rmSync(dir, { recursive: true, force: true }));

s("the session its process's file names, and the new one once /clear rewrote it", () => {
  write(own(A));
  assert.is(currentClaudeSession(dir, group), A);
  write({ ...own(B), status: 'busy' });
  assert.is(currentClaudeSession(dir, group), B);
});

s("a file left by an earlier process with the same pid (another start time) is not this one's", () => {
  write({ ...own(A), procStart: String(self.startTicks - 1) });
  assert.is(currentClaudeSession(dir, group), undefined);
});

s("a headless claude's file (run by a tool in the tab) is not the tab's", () => {
  write({ ...own(A), kind: 'sdk-cli' });
  assert.is(currentClaudeSession(dir, group), undefined);
});

s("no file (claude not started yet), or not one of claude's: no answer", () => {
  assert.is(currentClaudeSession(dir, group), undefined);
  writeFileSync(join(dir, 'sessions', `${process.pid}.json`), '{"pid":');
  assert.is(currentClaudeSession(dir, group), undefined);
});

s.run();
