// `baton chat` with a drop-in driver that misbehaves: a headless() that never settles (holding
// the event loop, or not), that ignores --timeout and SIGTERM, or that returns without an
// answer. baton keeps the turn's deadline and cancel itself (src/conversation/turn-guard.ts):
// exit 4 on the timeout, 130 on a signal, never 0 without an answer; an error entry records
// why, and the conversation's lock is released. The built CLI runs in a process of its own.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openConversation, readConversation } from '../../src/transcript/store.js';
import type { Entry } from '../../src/transcript/types.js';
import { alive } from '../../src/proc/index.js';
import { until } from '../helpers/wait.js';
import { startCliProcess } from '../helpers/cli-process.js';

// One driver, `odd`, whose behaviour the prompt picks. It marks the start of its turn in a
// file, so a test knows when the turn is under way.
const ODD_DRIVER = `
import { writeFileSync } from 'node:fs';
export default {
  name: 'odd',
  title: 'Odd',
  families: [],
  capabilities: { resume: false, fork: false },
  detect: async () => ({ installed: true, installHint: 'nothing to install' }),
  launch: ({ cwd }) => ({ command: 'true', args: [], env: {}, cwd }),
  headless(turn) {
    writeFileSync(turn.env.ODD_MARK, String(process.pid));
    // The message is the prompt's last line (a brief of the earlier turns goes before it).
    const p = turn.prompt.split('\\n').pop();
    // Ignores its timeout and its signal, and holds the event loop (a CLI it waits on forever).
    if (p.includes('[[hang]]')) return new Promise(() => { setInterval(() => {}, 1000); });
    // Forgets to settle, and nothing else keeps baton's event loop running.
    if (p.includes('[[forget]]')) return new Promise(() => {});
    if (p.includes('[[mute]]')) {
      turn.onEvent({ type: 'reasoning', text: 'thinking, but saying nothing' });
      turn.onEvent({ type: 'agent_text', text: '   ' });
      turn.onEvent({ type: 'turn_end' });
      return Promise.resolve({ resumed: false });
    }
    if (p.includes('[[said-error]]')) {
      turn.onEvent({ type: 'error', text: 'the model is overloaded', code: 'overloaded' });
      return Promise.resolve({ resumed: false });
    }
    if (p.includes('[[tool-only]]')) {
      turn.onEvent({ type: 'tool_call', toolCallId: 't1', toolName: 'write', input: { path: 'a.txt' } });
      turn.onEvent({ type: 'tool_result', toolCallId: 't1', toolName: 'write', output: 'ok', isError: false });
      return Promise.resolve({ resumed: false });
    }
    turn.onEvent({ type: 'agent_text', text: 'an answer' });
    return Promise.resolve({ resumed: false });
  },
};
`;

// A driver whose detect() never answers (and holds the event loop): baton cannot even start the turn.
const DEAF_DRIVER = `
import { writeFileSync } from 'node:fs';
export default {
  name: 'deaf',
  title: 'Deaf',
  families: [],
  capabilities: { resume: false, fork: false },
  detect: ({ env }) => new Promise(() => { writeFileSync(env.ODD_MARK, 'detecting'); setInterval(() => {}, 1000); }),
  launch: ({ cwd }) => ({ command: 'true', args: [], env: {}, cwd }),
  headless: async () => ({ resumed: false }),
};
`;

let home = '';
let cwd = '';
let plugins = '';

/** Starts the built CLI; `exit` resolves when it is gone (a baton still running after its `ms` fails the test and is killed). */
function start(args: string[]) {
  const env = { ...process.env, BATON_HOME: home, XDG_CONFIG_HOME: join(home, 'config'), ODD_MARK: join(home, 'turn-started') };
  return startCliProcess(['--plugins', plugins, ...args], cwd, env);
}

async function conversation(): Promise<{ id: string; entries: Entry[] }> {
  const id = readdirSync(join(home, 'conversations'))[0]!;
  const conv = await readConversation(home, id);
  const entries = [...conv.transcript.entries];
  await conv.close();
  return { id, entries };
}

/** The lock is free: no lock file, and a writer can open the conversation. */
async function assertUnlocked(id: string): Promise<void> {
  assert.not.ok(existsSync(join(home, 'conversations', id, 'lock')), 'no lock file left');
  const conv = await openConversation(home, id, { write: true });
  await conv.close();
}

const t = suite('turn-guard');
t.before.each(() => {
  home = mkdtempSync(join(tmpdir(), 'baton-guard-'));
  cwd = mkdtempSync(join(tmpdir(), 'baton-guard-cwd-'));
  plugins = join(home, 'plugins');
  mkdirSync(plugins);
  writeFileSync(join(plugins, 'odd.mjs'), ODD_DRIVER);
  writeFileSync(join(plugins, 'deaf.mjs'), DEAF_DRIVER);
});
t.after.each(() => {
  rmSync(home, { recursive: true, force: true });
  rmSync(cwd, { recursive: true, force: true });
});

t('a driver that ignores --timeout and never settles: exit 4 soon after the timeout, an error entry, the lock released', async () => {
  const r = await start(['chat', '--new', '--agent', 'odd', '--timeout', '1', 'please [[hang]]']).exit();
  assert.is(r.code, 4, r.err);
  assert.match(r.err, /baton: Odd did not finish the turn within 1 s, nor stop when asked; baton stopped waiting for it/);
  assert.match(r.err, /hint: .*--timeout/);
  const { id, entries } = await conversation();
  const last = entries.at(-1)!;
  assert.is(last.kind, 'error');
  assert.match(last.kind === 'error' ? last.text : '', /^Odd did not finish the turn within 1 s/);
  assert.ok(
    entries.some((e) => e.kind === 'user_message' && e.text === 'please [[hang]]'),
    'the message is kept',
  );
  await assertUnlocked(id);
});

t('the same hung driver and SIGTERM: exit 130 within the grace period, an error entry, the lock released', async () => {
  const run = start(['chat', '--new', '--agent', 'odd', 'please [[hang]]']);
  await until(() => existsSync(join(home, 'turn-started')), 'the driver to start its turn', 30_000);
  const pid = Number(readFileSync(join(home, 'turn-started'), 'utf8'));
  process.kill(run.child.pid!, 'SIGTERM');
  // Failing, not hanging, on a baton that ignores it: 30 s is far beyond its few seconds.
  const r = await run.exit(30_000);
  assert.is(r.code, 130, r.err);
  assert.not.ok(alive(pid), 'baton is gone');
  assert.match(r.err, /SIGTERM: cancelling the turn/);
  assert.match(r.err, /the turn was cancelled \(SIGTERM\); Odd did not stop within 3 s, and baton stopped waiting for it/);
  assert.match(r.err, /hint: .*baton transcript show/);
  const { id, entries } = await conversation();
  const last = entries.at(-1)!;
  assert.is(last.kind, 'error');
  assert.match(last.kind === 'error' ? last.text : '', /^The turn was cancelled \(SIGTERM\)/);
  assert.is(last.kind === 'error' ? last.code : '', '130');
  await assertUnlocked(id);
});

t('a driver whose detect() never answers: SIGTERM still ends baton with 130, the conversation unchanged and unlocked', async () => {
  const first = await start(['chat', '--new', '--agent', 'odd', 'please answer']).exit();
  assert.is(first.code, 0, first.err);
  const before = await conversation();
  const run = start(['chat', '--conversation', before.id, '--agent', 'deaf', 'hello']);
  await until(() => readFileSync(join(home, 'turn-started'), 'utf8') === 'detecting', 'the driver to be asked whether it is installed', 30_000);
  process.kill(run.child.pid!, 'SIGTERM');
  const r = await run.exit(30_000);
  assert.is(r.code, 130, r.err);
  assert.match(r.err, /the turn was cancelled \(SIGTERM\) before Deaf started/);
  assert.equal((await conversation()).entries, before.entries, 'nothing was recorded');
  await assertUnlocked(before.id);
});

t('a driver that forgets to settle, with nothing else running: never exit 0 — exit 4 after the timeout, with an error entry', async () => {
  const r = await start(['chat', '--new', '--agent', 'odd', '--timeout', '1', 'please [[forget]]']).exit();
  assert.is(r.code, 4, r.err);
  assert.match(r.err, /Odd did not finish the turn within 1 s/);
  const { id, entries } = await conversation();
  assert.is(entries.at(-1)!.kind, 'error');
  await assertUnlocked(id);
});

t('a turn that ended without an answer (blank text, reasoning, usage only; or only an error) is exit 4 with an error entry', async () => {
  const mute = await start(['chat', '--new', '--agent', 'odd', 'please [[mute]]']).exit();
  assert.is(mute.code, 4, mute.err);
  assert.match(mute.err, /baton: Odd ended the turn without an answer \(no text, no tool call, no approval request\)/);
  const { id, entries } = await conversation();
  const last = entries.at(-1)!;
  assert.is(last.kind, 'error');
  assert.match(last.kind === 'error' ? last.text : '', /without an answer/);
  await assertUnlocked(id);

  // The driver's own error is the reason given, and is not recorded twice.
  const said = await start(['chat', '--conversation', id, 'please [[said-error]]']).exit();
  assert.is(said.code, 4, said.err);
  assert.match(said.err, /Odd ended the turn without an answer: the model is overloaded/);
  const after = (await conversation()).entries;
  const turn = after.slice(after.map((e) => e.kind).lastIndexOf('user_message'));
  assert.equal(
    turn.map((e) => e.kind),
    ['user_message', 'error'],
  );
});

t('an answer is text or something the agent did: a turn of tool calls alone, or of text, is exit 0', async () => {
  const tool = await start(['chat', '--new', '--agent', 'odd', 'please [[tool-only]]']).exit();
  assert.is(tool.code, 0, tool.err);
  const { id } = await conversation();
  const text = await start(['chat', '--conversation', id, 'please answer']).exit();
  assert.is(text.code, 0, text.err);
  assert.match(text.out, /an answer/);
  const entries = (await conversation()).entries;
  assert.not.ok(
    entries.some((e) => e.kind === 'error'),
    'no error entry',
  );
});

t.run();
