// src/conversation/switch-transaction.ts, a tab opened on a native fork: the CLI is launched
// with the source's session and `fork` (and no brief: that session holds the history), the
// source's session never becomes the fork's, and once the CLI's log names its new session,
// that one is the fork's own cursor. The driver is a drop-in written here (our own
// contract): its "CLI", in a real PTY tab, logs how it was launched and the session it runs
// in (a new one when asked to fork), and the driver's ingest follows that log. Also: a tab
// program that cannot open a session by id (capabilities.tabSession false) gets the brief.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { forkConversation } from '../../src/conversation/fork.js';
import { TabSession } from '../../src/conversation/tab-session.js';
import { loadRegistry, type Registry } from '../../src/plugins/registry.js';
import { createConversation, openConversation, type OpenConversation } from '../../src/transcript/store.js';
import { TabTerminal } from '../../src/tui/tab-terminal.js';
import { Tab } from '../../src/tui/tab.js';
import { pasteInput } from '../helpers/paste-cli.js';
import { until } from '../helpers/wait.js';

// A small interactive CLI in a real PTY: it turns bracketed paste on, shows an idle prompt,
// takes a paste + Enter as one message (as the real TUIs do), logs it as its user message and
// answers; it also logs how it was launched (its whole argv) and the session it runs in.
const CLI = `import { appendFileSync } from 'node:fs';
const log = process.env.FORKY_LOG;
const how = JSON.parse(process.argv[2]);
const rec = (r) => appendFileSync(log, JSON.stringify(r) + '\\n');
rec({ type: 'launched', ...how, argv: process.argv.slice(2) });
rec({ type: 'session', agentSession: how.fork ? 'FORKED-NEW' : how.resume ?? 'FRESH' });
${pasteInput('forky ready> ')}
onMessage((text) => {
  rec({ type: 'user_text', text });
  rec({ type: 'agent_text', text: 'got ' + text.length + ' chars' });
  rec({ type: 'turn_end' });
});
`;

const dropIn = (cli: string, tabSession = true) => `export default (kit) => ({
  name: 'forky',
  title: 'Forky',
  families: [],
  capabilities: { resume: true, fork: true, tabSession: ${tabSession} },
  async detect() { return { installed: true, installHint: 'written by test/switch-transaction.test.ts' }; },
  launch(opts) {
    const how = { resume: opts.resume ?? null, fork: !!opts.fork, model: opts.model ?? null, args: opts.args ?? [] };
    return { command: process.execPath, args: [${JSON.stringify(cli)}, JSON.stringify(how)], env: { FORKY_LOG: opts.env.FORKY_LOG }, cwd: opts.cwd };
  },
  localEndpoint: (o) => ({ args: ['--local-server', o.endpoint], env: {}, model: 'local/' + o.model }),
  statusFromScreen: (lines) => (lines.some((l) => l.includes('forky ready>')) ? 'idle' : undefined),
  async ingest(opts) {
    const tail = await kit.tailJsonl(opts.env.FORKY_LOG, { onRecord: (r) => { if (r.type !== 'launched') opts.onEvent(r); } });
    return { agentSession: undefined, skipped: 0, dispose: () => tail.dispose() };
  },
});
`;

/** The forky CLI's log records, in order. */
function records(log: string): Record<string, any>[] {
  return readFileSync(log, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, any>);
}

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

s("a tab on a native fork launches the CLI with the source session and fork, no brief; the new session becomes the fork's", async () => {
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

  await until(() => conv.transcript.cursor('forky')?.agentSession === 'FORKED-NEW', "the new session becomes the fork's cursor");
  const launched = records(log)[0]!;
  assert.equal({ resume: launched.resume, fork: launched.fork }, { resume: 'SRC-1', fork: true }, 'the source session, forked');
  assert.not.ok(
    records(log).some((r) => r.type === 'user_text'),
    "nothing was sent: no model turn on the fork's own",
  );
  const cursor = conv.transcript.cursor('forky')!;
  assert.is(cursor.fork, undefined, 'no longer marked fork');
  assert.is(cursor.deliveredSeq, at, 'the new session holds what the forked one held');
  const sessions = conv.transcript.entries.flatMap((e) => (e.kind === 'agent_session' ? [e.agentSession] : []));
  assert.equal(sessions, ['FORKED-NEW'], "the source's session is never recorded as the fork's");
});

s('a tab program that cannot open a session by id starts fresh; the brief goes with the next message, which alone is recorded', async () => {
  // forky ran a turn in its session SRC-1 (headless, say); the tab cannot reopen it.
  const { env, log, src: conv } = await forkyWithOneTurn(false, 'hello MARK-EARLIER');

  session = tabOn(conv, env);
  const outcome = await session.start('forky');
  assert.is(outcome.kind, 'started', outcome.message);
  assert.match(outcome.message, /your next message carries the conversation so far/);
  await until(() => records(log).some((r) => r.type === 'launched'), 'the CLI was launched');
  const launched = records(log)[0]!;
  assert.is(launched.resume, null, 'no session id handed to a program that cannot take one');
  assert.is(launched.fork, false);
  assert.not.ok(JSON.stringify(launched.argv).includes('MARK-EARLIER'), 'nothing of the conversation on the command line');
  assert.ok(session.snapshot().briefPending);
  // No turn is spent on the brief alone.
  await new Promise((r) => setTimeout(r, 500));
  assert.not.ok(
    records(log).some((r) => r.type === 'user_text'),
    'the brief was not sent alone',
  );

  await until(() => session!.snapshot().status === 'idle', 'ready for input');
  const r = await session.send('next question MARK-NEXT');
  assert.is(r.kind, 'delivered');
  const sent = records(log).filter((x) => x.type === 'user_text');
  assert.is(sent.length, 1, 'one message reached the CLI');
  assert.match(sent[0]!.text, /^\[baton handoff brief\][^]*MARK-EARLIER[^]*next question MARK-NEXT$/, 'the brief, then the message, in one paste');
  await until(() => conv.transcript.entries.some((e) => e.kind === 'agent_text' && /got/.test(e.text)), 'the answer recorded');
  const users = conv.transcript.entries.flatMap((e) => (e.kind === 'user_message' ? [e.text] : []));
  assert.equal(users, ['hello MARK-EARLIER', 'next question MARK-NEXT'], 'the message recorded as typed, never the brief');
  assert.not.ok(session.snapshot().briefPending);
});

s('a switch pastes the brief and the message once the new CLI is ready; the transcript records the message as typed', async () => {
  const { env, log, src: conv } = await forkyWithOneTurn(false, 'hello MARK-ONE');
  // The conversation's agent is forky; arm a switch to forky-2 (the same program under another name).
  writeFileSync(
    join(home, 'plugins', 'forky2.mjs'),
    dropIn(join(home, 'forky-cli.mjs'), false).replace("name: 'forky'", "name: 'forky2'").replace("title: 'Forky'", "title: 'Forky Two'"),
  );
  await registry!.dispose();
  registry = await loadRegistry({ env, builtinDir: false, pluginDirs: [join(home, 'plugins')] });
  session = tabOn(conv, env);
  assert.is((await session.start('forky')).kind, 'started');
  await until(() => session!.snapshot().status === 'idle', 'forky ready');
  assert.ok(session.arm('forky2').armed);
  const r = await session.send('over to you MARK-TWO');
  assert.is(r.kind, 'switch');
  assert.is(r.kind === 'switch' && r.outcome.kind, 'switched', r.kind === 'switch' ? r.outcome.message : '');
  const sent = records(log)
    .filter((x) => x.type === 'user_text')
    .map((x) => x.text as string);
  assert.is(sent.filter((t) => t.includes('MARK-TWO')).length, 1, 'the message went once');
  assert.match(sent[sent.length - 1]!, /^\[baton handoff brief\][^]*MARK-ONE[^]*over to you MARK-TWO$/);
  for (const l of records(log).filter((x) => x.type === 'launched')) assert.not.ok(JSON.stringify(l.argv).includes('MARK'), 'no brief or message in argv');
  const users = conv.transcript.entries.flatMap((e) => (e.kind === 'user_message' ? [e.text] : []));
  assert.equal(users, ['hello MARK-ONE', 'over to you MARK-TWO']);
  const handoff = conv.transcript.entries.find((e) => e.kind === 'handoff' && e.to.harness === 'forky2');
  assert.ok(handoff && handoff.kind === 'handoff' && handoff.briefChars > 0 && handoff.briefHash, "the brief recorded only as the handoff's");
});

s('a brief too long to paste goes as a 0600 file the pasted message points at; the file is gone when the run ends', async () => {
  const { env, log, src: conv } = await forkyWithOneTurn(false, `hello ${'long words '.repeat(20_000)} MARK-BIG`);
  session = tabOn(conv, env);
  assert.is((await session.start('forky')).kind, 'started');
  await until(() => session!.snapshot().status === 'idle', 'ready for input');
  assert.is((await session.send('short MARK-SMALL')).kind, 'delivered');
  const sent = records(log)
    .filter((x) => x.type === 'user_text')
    .map((x) => x.text as string);
  assert.is(sent.length, 1);
  const file = /in the file (\S+\.md)\./.exec(sent[0]!)?.[1];
  assert.ok(file, `the paste points at the file: ${sent[0]!.slice(0, 200)}`);
  assert.ok(sent[0]!.endsWith('short MARK-SMALL'));
  assert.match(readFileSync(file!, 'utf8'), /MARK-BIG/);
  assert.is(statSync(file!).mode & 0o777, 0o600);
  await session.stopAgent(1000);
  assert.not.ok(existsSync(file!), 'removed when the run ended');
});

s("an agent's plain entry in the switch picker takes it back to the model and local server it ran on here, in its own session", async () => {
  const { env, log, src: conv } = await forkyWithOneTurn(true, 'hello MARK-L1');
  writeFileSync(
    join(home, 'plugins', 'forky2.mjs'),
    dropIn(join(home, 'forky-cli.mjs'), true).replace("name: 'forky'", "name: 'forky2'").replace("title: 'Forky'", "title: 'Forky Two'"),
  );
  await registry!.dispose();
  registry = await loadRegistry({ env, builtinDir: false, pluginDirs: [join(home, 'plugins')] });
  // forky's turn ran on a local server, then forky2 took over.
  const t = conv.transcript;
  t.startSegment({ harness: 'forky', model: 'llama3.1', switchId: 'sw-2', local: { endpoint: 'http://127.0.0.1:9', api: 'openai-chat' } });
  t.apply({ type: 'user_text', text: 'local MARK-L2' });
  t.apply({ type: 'session', agentSession: 'LOCAL-1' });
  t.apply({ type: 'agent_text', text: 'local answer' });
  t.apply({ type: 'turn_end' });
  t.confirmCursor('forky', 'LOCAL-1', t.lastSeq);
  t.startSegment({ harness: 'forky2', model: 'default', switchId: 'sw-3' });
  t.apply({ type: 'user_text', text: 'cloud MARK-L3' });
  t.apply({ type: 'agent_text', text: 'cloud answer' });
  t.apply({ type: 'turn_end' });
  conv.sync();
  session = tabOn(conv, env);
  assert.is((await session.start('forky2')).kind, 'started');
  await until(() => session!.snapshot().status === 'idle', 'forky2 ready');
  assert.ok(session.arm('forky').armed);
  assert.is(session.armed?.model, undefined, "no model asked for: the planner's own rule");
  const r = await session.send('back MARK-L4');
  assert.is(r.kind === 'switch' && r.outcome.kind, 'switched', r.kind === 'switch' ? r.outcome.message : '');
  const launched = records(log).filter((x) => x.type === 'launched');
  assert.equal(
    { resume: launched.at(-1)!.resume, model: launched.at(-1)!.model, args: launched.at(-1)!.args },
    { resume: 'LOCAL-1', model: 'local/llama3.1', args: ['--local-server', 'http://127.0.0.1:9'] },
    'its own session, on its model as the driver names it, pointed at the server again',
  );
  const seg = conv.transcript.currentSegment!;
  assert.equal([seg.harness, seg.model, seg.local?.endpoint], ['forky', 'llama3.1', 'http://127.0.0.1:9'], 'the transcript keeps the name the user gave');
});

s.run();
