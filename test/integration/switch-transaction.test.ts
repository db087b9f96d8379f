// src/conversation/switch-transaction.ts, a tab opened on a native fork: the CLI is launched
// with the source's session and `fork` (and no brief: that session holds the history), the
// source's session never becomes the fork's, and once the CLI's log names its new session,
// that one is the fork's own cursor. The driver is a drop-in written here (our own
// contract): its "CLI", in a real PTY tab, logs how it was launched and the session it runs
// in (a new one when asked to fork), and the driver's ingest follows that log. Also: a tab
// program that cannot open a session by id (capabilities.tabSession false) gets the brief.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { forkConversation } from '../../src/conversation/fork.js';
import { TabSession } from '../../src/conversation/tab-session.js';
import { loadRegistry, type Registry } from '../../src/plugins/registry.js';
import { createConversation, openConversation, type OpenConversation } from '../../src/transcript/store.js';
import { TabTerminal } from '../../src/tui/tab-terminal.js';
import { Tab } from '../../src/tui/tab.js';
import { until } from '../helpers/term.js';

const CLI = `import { appendFileSync } from 'node:fs';
const log = process.env.FORKY_LOG;
const how = JSON.parse(process.argv[2]);
const rec = (r) => appendFileSync(log, JSON.stringify(r) + '\\n');
rec({ type: 'launched', ...how });
rec({ type: 'session', agentSession: how.fork ? 'FORKED-NEW' : how.resume ?? 'FRESH' });
process.stdout.write('forky ready\\n');
setInterval(() => {}, 1000);
`;

const dropIn = (cli: string, tabSession = true) => `export default (kit) => ({
  name: 'forky',
  title: 'Forky',
  families: [],
  capabilities: { resume: true, fork: true, tabSession: ${tabSession} },
  async detect() { return { installed: true, installHint: 'written by test/switch-transaction.test.ts' }; },
  launch(opts) {
    const how = { resume: opts.resume ?? null, fork: !!opts.fork, prompt: opts.initialPrompt ?? null };
    return { command: process.execPath, args: [${JSON.stringify(cli)}, JSON.stringify(how)], env: { FORKY_LOG: opts.env.FORKY_LOG }, cwd: opts.cwd, prompt: 'none' };
  },
  async ingest(opts) {
    const tail = await kit.tailJsonl(opts.env.FORKY_LOG, { onRecord: (r) => { if (r.type !== 'launched') opts.onEvent(r); } });
    return { agentSession: undefined, skipped: 0, dispose: () => tail.dispose() };
  },
});
`;

let home = '';
let registry: Registry | undefined;
let session: TabSession | undefined;
let terminal: TabTerminal | undefined;
const tabs: Tab[] = [];

/** The forky drop-in registered, and a conversation holding one turn of it in its session SRC-1, cursor confirmed. */
async function forkyWithOneTurn(tabSession: boolean, text: string): Promise<{ env: NodeJS.ProcessEnv; log: string; src: OpenConversation }> {
  const cli = join(home, 'forky-cli.mjs');
  writeFileSync(cli, CLI);
  const plugins = join(home, 'plugins');
  mkdirSync(plugins);
  writeFileSync(join(plugins, 'forky.mjs'), dropIn(cli, tabSession));
  const log = join(home, 'cli-log.jsonl');
  writeFileSync(log, '');
  const work = join(home, 'work');
  mkdirSync(work);
  const env = { ...process.env, BATON_HOME: join(home, 'baton'), XDG_CONFIG_HOME: join(home, 'config'), FORKY_LOG: log };
  registry = await loadRegistry({ env, builtinDir: false, pluginDirs: [plugins] });
  const src = await createConversation(join(home, 'baton'), { cwd: work, title: 'source', user: { type: 'user', name: 'tester', device: 'test' } });
  const t = src.transcript;
  t.startSegment({ harness: 'forky', model: 'default', switchId: 'sw-1' });
  t.apply({ type: 'user_text', text });
  t.apply({ type: 'session', agentSession: 'SRC-1' });
  t.apply({ type: 'agent_text', text: 'hi back' });
  t.apply({ type: 'turn_end' });
  t.confirmCursor('forky', 'SRC-1', t.lastSeq);
  return { env, log, src };
}

/** A TabSession over a real PTY tab, on `conv`. */
function tabOn(conv: OpenConversation, env: NodeJS.ProcessEnv): TabSession {
  terminal = new TabTerminal((launch) => {
    const tab = new Tab(launch, { cols: 80, rows: 10, baseEnv: { PATH: process.env.PATH } });
    tabs.push(tab);
    return tab;
  });
  return new TabSession({ conversation: conv, registry: registry!, terminal, env });
}

const s = suite('switch-transaction');
s.before.each(() => {
  home = mkdtempSync(join(tmpdir(), 'baton-switch-'));
});
s.after.each(async () => {
  await session?.dispose();
  terminal?.dispose();
  for (const t of tabs.splice(0)) await t.dispose();
  await registry?.dispose();
  session = terminal = registry = undefined;
  rmSync(home, { recursive: true, force: true });
});

s('a tab on a native fork launches the CLI with the source session and fork, no brief; the new session becomes the fork\'s', async () => {
  const { env, log, src } = await forkyWithOneTurn(true, 'hello MARK-SRC');
  const at = src.transcript.lastSeq;
  await src.close();

  const fork = await forkConversation(join(home, 'baton'), src.id, at, { registry, env });
  assert.is(fork.mode, 'native', fork.replayReason);
  assert.equal(fork.nativeSession, { harness: 'forky', agentSession: 'SRC-1' });

  const conv: OpenConversation = await openConversation(join(home, 'baton'), fork.id, { write: true });
  session = tabOn(conv, env);
  const outcome = await session.start('forky');
  assert.is(outcome.kind, 'started', outcome.message);
  assert.match(outcome.message, /in a fork of its own session/);

  await until(() => conv.transcript.cursor('forky')?.agentSession === 'FORKED-NEW', 'the new session becomes the fork\'s cursor');
  const launched = readFileSync(log, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>)[0]!;
  assert.equal(launched, { type: 'launched', resume: 'SRC-1', fork: true, prompt: null }, 'the source session, forked, and no brief');
  const cursor = conv.transcript.cursor('forky')!;
  assert.is(cursor.fork, undefined, 'no longer marked fork');
  assert.is(cursor.deliveredSeq, at, 'the new session holds what the forked one held');
  const sessions = conv.transcript.entries.flatMap((e) => (e.kind === 'agent_session' ? [e.agentSession] : []));
  assert.equal(sessions, ['FORKED-NEW'], 'the source\'s session is never recorded as the fork\'s');
});

s('a tab program that cannot open a session by id starts fresh with the brief, never blank', async () => {
  // forky ran a turn in its session SRC-1 (headless, say); the tab cannot reopen it.
  const { env, log, src: conv } = await forkyWithOneTurn(false, 'hello MARK-EARLIER');

  session = tabOn(conv, env);
  const outcome = await session.start('forky');
  assert.is(outcome.kind, 'started', outcome.message);
  await until(() => readFileSync(log, 'utf8').includes('launched'), 'the CLI was launched');
  const launched = JSON.parse(readFileSync(log, 'utf8').split('\n')[0]!) as { resume: string | null; fork: boolean; prompt: string | null };
  assert.is(launched.resume, null, 'no session id handed to a program that cannot take one');
  assert.is(launched.fork, false);
  assert.match(launched.prompt ?? '', /MARK-EARLIER/, 'the brief carries the earlier turn');
});

s.run();
