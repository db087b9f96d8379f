// src/conversation/tab-session.ts. The ingest side: a message typed straight into the agent's
// own TUI (not sent from the compose bar) gets its checkpoint when the driver's ingest shows
// it, in a real git repository, with the CLI in a real PTY tab. And reset (below): the agent
// stopped, the same one armed, the next message a fresh start on a brief. The driver is a drop-in
// written here (our own contract): its "CLI" logs each line typed at it as a user_text,
// answers at once, and the driver's ingest follows that log with the plugin kit's tailJsonl.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { STALE_TURN_MS } from '../../src/conversation/agent-status.js';
import { TabSession } from '../../src/conversation/tab-session.js';
import { loadRegistry, type Registry } from '../../src/plugins/registry.js';
import { createConversation, readConversation, type OpenConversation } from '../../src/transcript/store.js';
import type { Entry } from '../../src/transcript/types.js';
import { TabTerminal } from '../../src/tui/tab-terminal.js';
import { Tab } from '../../src/tui/tab.js';
import { createCheckpoint } from '../../src/worktree/checkpoint.js';
import { resetConversation } from '../../src/conversation/reset.js';
import { pasteInput } from '../helpers/paste-cli.js';
import { exists } from '../../src/proc/index.js';
import { until } from '../helpers/wait.js';

// The CLI: each line typed at it is logged as the user's message, then answered at once
// (the answer reaches the log while baton is still taking the message's checkpoint). With
// TYPED_LOG_GATE, the screen answers at once and the log is written once that file exists.
const CLI = `import { appendFileSync, existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
const log = process.env.TYPED_CLI_LOG;
const gate = process.env.TYPED_LOG_GATE;
const rec = (r) => appendFileSync(log, JSON.stringify(r) + '\\n');
const logLater = async (records) => {
  while (!existsSync(gate)) await new Promise((r) => setTimeout(r, 20));
  for (const r of records) rec(r);
};
process.stdout.write('typed-cli ready\\n> ');
createInterface({ input: process.stdin }).on('line', (line) => {
  const records = [{ type: 'user_text', text: line }, { type: 'agent_text', text: 'ok: ' + line }, { type: 'turn_end' }];
  if (gate) void logLater(records);
  else for (const r of records) rec(r);
  process.stdout.write('ok: ' + line + '\\n> ');
});
`;

const dropIn = (cli: string) => `export default (kit) => ({
  name: 'typed',
  title: 'Typed CLI',
  families: [],
  capabilities: { resume: false, fork: false },
  async detect() { return { installed: true, installHint: 'written by test/tab-session.test.ts' }; },
  launch(opts) {
    return { command: process.execPath, args: [${JSON.stringify(cli)}], env: { TYPED_CLI_LOG: opts.env.TYPED_CLI_LOG, ...(opts.env.TYPED_LOG_GATE ? { TYPED_LOG_GATE: opts.env.TYPED_LOG_GATE } : {}) }, cwd: opts.cwd, session: 'typed-session-1' };
  },
  async ingest(opts) {
    // What baton gave the ingest to bind the run by, for the test to read.
    if (opts.env.TYPED_BIND_LOG) {
      const { writeFileSync } = await import('node:fs');
      writeFileSync(opts.env.TYPED_BIND_LOG, JSON.stringify({ agentSession: opts.agentSession, group: opts.processGroup?.() }));
    }
    if (opts.env.TYPED_UNBOUND) {
      opts.onUnbound('two sessions started in this directory at about the same time');
      return { agentSession: undefined, skipped: 0, dispose: async () => {} };
    }
    const tail = await kit.tailJsonl(opts.env.TYPED_CLI_LOG, { onRecord: (r) => opts.onEvent(r) });
    return { agentSession: undefined, skipped: 0, dispose: () => tail.dispose() };
  },
});
`;

interface World {
  home: string;
  repo: string;
  env: NodeJS.ProcessEnv;
  registry: Registry;
  conv: OpenConversation;
  terminal: TabTerminal;
  tabs: Tab[];
  session: TabSession;
  /** The seqs checkpoints were asked for, in order. */
  asked: number[];
}

let w: World | undefined;

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

async function world(opts: { checkpoints?: boolean; env?: Record<string, string> } = {}): Promise<World> {
  const home = mkdtempSync(join(tmpdir(), 'baton-tabsession-'));
  const repo = join(home, 'repo');
  mkdirSync(repo);
  git(repo, 'init', '-q', '-b', 'main');
  git(repo, 'config', 'user.name', 'Test');
  git(repo, 'config', 'user.email', 'test@example.com');
  git(repo, 'config', 'commit.gpgsign', 'false');
  writeFileSync(join(repo, 'notes.txt'), 'committed\n');
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'first');
  const cli = join(home, 'typed-cli.mjs');
  writeFileSync(cli, CLI);
  const plugins = join(home, 'plugins');
  mkdirSync(plugins);
  writeFileSync(join(plugins, 'typed.mjs'), dropIn(cli));
  const log = join(home, 'cli-log.jsonl');
  writeFileSync(log, '');
  const env = { ...process.env, BATON_HOME: join(home, 'baton'), XDG_CONFIG_HOME: join(home, 'config'), TYPED_CLI_LOG: log, ...(opts.env ?? {}) };
  const registry = await loadRegistry({ env, builtinDir: false, pluginDirs: [plugins] });
  const conv = await createConversation(join(home, 'baton'), { cwd: repo, title: 'typed', user: { type: 'user', name: 'tester', device: 'test' } });
  const tabs: Tab[] = [];
  const terminal = new TabTerminal((launch) => {
    const tab = new Tab(launch, { cols: 80, rows: 10, baseEnv: { PATH: process.env.PATH } });
    tabs.push(tab);
    return tab;
  });
  const asked: number[] = [];
  const session = new TabSession({
    conversation: conv,
    registry,
    terminal,
    env,
    checkpoint:
      opts.checkpoints === false
        ? undefined
        : (seq) => {
            asked.push(seq);
            return createCheckpoint(repo, conv.id, seq);
          },
  });
  w = { home, repo, env, registry, conv, terminal, tabs, session, asked };
  const outcome = await session.start('typed');
  assert.is(outcome.kind, 'started', outcome.message);
  await until(() => terminal.screenLines().some((l) => l.includes('typed-cli ready')), 'the CLI is up');
  return w;
}

/**
 * Once a session and its tab are disposed, no timer of theirs is left (a wait for the CLI's
 * screen to go quiet held a 60 s one, and this suite's process then lingered a minute).
 */
const noTimerLeft = () => until(() => !process.getActiveResourcesInfo().includes('Timeout'), 'no timer left once the session is disposed', 5000);

const s = suite('tab-session');
s.after.each(async () => {
  if (!w) return;
  await w.session.dispose();
  w.terminal.dispose();
  for (const t of w.tabs) await t.dispose();
  await w.registry.dispose();
  rmSync(w.home, { recursive: true, force: true });
  w = undefined;
  await noTimerLeft();
});

const users = (c: OpenConversation) => c.transcript.entries.filter((e): e is Entry & { kind: 'user_message' } => e.kind === 'user_message');
const fileAt = (repo: string, commit: string, path: string) => git(repo, 'show', `${commit}:${path}`);

s('a message typed into the CLI gets a checkpoint of the files as they were when it was ingested, recorded on its entry in log order', async () => {
  const { repo, conv, terminal, session, asked } = await world();
  writeFileSync(join(repo, 'notes.txt'), 'edited before typing\n');
  writeFileSync(join(repo, 'untracked.txt'), 'new\n');
  terminal.write('fix the bug\r');
  await until(() => conv.transcript.entries.some((e) => e.kind === 'turn_end'), 'the typed turn is ingested');
  await session.ingested();

  const [typed] = users(conv);
  assert.ok(typed, 'the typed message is recorded');
  assert.is(typed!.text, 'fix the bug');
  assert.ok(typed!.checkpoint, 'with a checkpoint');
  assert.equal(asked, [typed!.seq]);
  assert.is(git(repo, 'rev-parse', `refs/baton/checkpoints/${conv.id}/${typed!.seq}`), typed!.checkpoint);
  assert.is(fileAt(repo, typed!.checkpoint!, 'notes.txt'), 'edited before typing');
  assert.is(fileAt(repo, typed!.checkpoint!, 'untracked.txt'), 'new');
  // The answer came while the checkpoint was being taken: it still follows the message.
  const kinds = conv.transcript.entries.filter((e) => e.seq >= typed!.seq).map((e) => e.kind);
  assert.equal(kinds, ['user_message', 'agent_text', 'turn_end']);
  // Stored as it is in memory.
  conv.sync();
  const stored = await readConversation(join(w!.home, 'baton'), conv.id);
  assert.is(stored.transcript.entry(typed!.seq)?.checkpoint, typed!.checkpoint);
});

s('a compose-bar message keeps its one checkpoint (taken before sending); each typed message gets its own', async () => {
  const { repo, conv, terminal, session, asked } = await world();
  await conv.meta.update({ title: '' }); // untitled, as a conversation opened in the TUI is
  terminal.write('first, typed\r');
  await until(() => users(conv).length === 1 && !!users(conv)[0]!.checkpoint, 'the typed message');
  await until(() => session.status.current === 'idle', 'idle after the typed turn');

  writeFileSync(join(repo, 'notes.txt'), 'before the compose message\n');
  const sent = await session.send('second, from the compose bar');
  assert.is(sent.kind, 'delivered');
  await until(() => users(conv).length === 2, 'the compose message is ingested');
  await until(() => session.status.current === 'idle', 'idle after the compose turn');

  writeFileSync(join(repo, 'notes.txt'), 'before the third\n');
  terminal.write('third, typed\r');
  await until(() => users(conv).length === 3 && !!users(conv)[2]!.checkpoint, 'the second typed message');
  await session.ingested();

  const [first, second, third] = users(conv);
  assert.equal(
    users(conv).map((e) => e.text),
    ['first, typed', 'second, from the compose bar', 'third, typed'],
  );
  // An untitled conversation is named after its first message, as baton chat names it.
  await until(() => conv.meta.data.title === 'first, typed', 'the title from the first message');
  // One checkpoint per message: the compose bar's was not taken again when its echo came in.
  assert.equal(asked, [first!.seq, second!.seq, third!.seq]);
  const refs = git(repo, 'for-each-ref', '--format=%(refname)', `refs/baton/checkpoints/${conv.id}/`).split('\n');
  assert.is(refs.length, 3);
  assert.is(fileAt(repo, second!.checkpoint!, 'notes.txt'), 'before the compose message');
  assert.is(fileAt(repo, third!.checkpoint!, 'notes.txt'), 'before the third');
  assert.is(readFileSync(join(repo, 'notes.txt'), 'utf8'), 'before the third\n');
});

s('without checkpoints (not a git repository) a typed message is recorded as before, at once', async () => {
  const { conv, terminal, asked } = await world({ checkpoints: false });
  terminal.write('no git here\r');
  await until(() => conv.transcript.entries.some((e) => e.kind === 'turn_end'), 'the typed turn is ingested');
  const [typed] = users(conv);
  assert.is(typed?.text, 'no git here');
  assert.is(typed?.checkpoint, undefined);
  assert.equal(asked, []);
});

s("the ingest is given what binds the run to its own session: the id the launch fixed and the tab's process group", async () => {
  const home = mkdtempSync(join(tmpdir(), 'baton-tabsession-bind-'));
  try {
    const bindLog = join(home, 'bind.json');
    const { tabs } = await world({ env: { TYPED_BIND_LOG: bindLog } });
    const given = JSON.parse(readFileSync(bindLog, 'utf8')) as { agentSession?: string; group?: number };
    assert.is(given.agentSession, 'typed-session-1');
    assert.is(given.group, tabs[0]!.pane.pid, "the group the PTY's program leads");
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});

s("an ingest that cannot tell its run's session from another's: the tab says so, and a message is refused, not sent unrecorded", async () => {
  const { conv, session, terminal } = await world({ env: { TYPED_UNBOUND: '1' } });
  assert.match(session.notice ?? '', /Typed CLI started\. Not recording: two sessions started in this directory/);
  const sent = await session.send('would cross tabs');
  assert.is(sent.kind, 'refused');
  assert.match((sent as { message: string }).message, /Nothing was sent/);
  await new Promise((r) => setTimeout(r, 300));
  assert.not.ok(
    terminal.screenLines().some((l) => l.includes('would cross tabs')),
    'nothing typed into the CLI',
  );
  assert.equal(users(conv), []);
});

s(
  'a turn the log never closed is over once the log has been silent 10 s under an idle screen, though nothing is drawn meanwhile (no screen is polled: one timer is armed for that moment)',
  async () => {
    const { conv, session, tabs } = await world({ checkpoints: false });
    await until(() => session.status.current === 'idle', 'the CLI reads idle');
    // The CLI's log opens a turn it never closes (an interrupt some CLIs do not log).
    appendFileSync(w!.env.TYPED_CLI_LOG!, JSON.stringify({ type: 'user_text', text: 'interrupted' }) + '\n');
    await until(() => session.status.current === 'working', 'the open turn read as working');
    const opened = Date.now();
    const parsed = tabs[0]!.pane.bytesParsed;
    await until(() => session.status.current === 'idle', 'the turn given up on', STALE_TURN_MS + 5000);
    const after = Date.now() - opened;
    assert.ok(after >= STALE_TURN_MS - 500, `idle after ${after} ms: not before the log was silent ${STALE_TURN_MS} ms`);
    assert.is(tabs[0]!.pane.bytesParsed, parsed, 'no output came meanwhile: time alone settled it');
    assert.equal(
      users(conv).map((e) => e.text),
      ['interrupted'],
    );
  },
);

// Before: the agent's answer was on screen while its log had not yet confirmed the message,
// and a switch picked then (C-b a) found 'nothing said yet' and started the agent afresh
// instead of arming the switch (seen in tui-acp-view-model under load).
s('a message on its way counts as said: answered on screen before its log confirms it, there is context to carry', async () => {
  const gateDir = mkdtempSync(join(tmpdir(), 'baton-log-gate-'));
  const gate = join(gateDir, 'open');
  try {
    const { session, terminal } = await world({ checkpoints: false, env: { TYPED_LOG_GATE: gate } });
    await until(() => session.status.current === 'idle', 'the CLI reads idle');
    assert.ok(session.snapshot().noContext, 'nothing said yet');
    const sending = session.send('first words');
    await until(() => terminal.screenLines().some((l) => l.includes('ok: first words')), 'the answer on screen');
    assert.not.ok(session.snapshot().noContext, 'the message on its way is context');
    writeFileSync(gate, '');
    assert.is((await sending).kind, 'delivered');
    assert.not.ok(session.snapshot().noContext, 'and once its log confirmed it');
  } finally {
    writeFileSync(gate, '');
    rmSync(gateDir, { recursive: true, force: true });
  }
});

s.run();

// TabSession.reset: the conversation was reset, so the agent (whose own session still holds
// what the reset hid) is stopped, and the next message starts the same agent afresh, with a
// brief of what is still shown and no resume. The driver here can resume (its CLI names a
// session, confirmed at each turn's end), so a resume is what an ordinary restart would do;
// each launch is recorded (resume, first prompt) and logs to a file of its own.
const RESUMABLE_CLI = `import { appendFileSync } from 'node:fs';
const log = process.env.RESUMABLE_LOG;
const rec = (r) => appendFileSync(log, JSON.stringify(r) + '\\n');
const answer = (text) => {
  rec({ type: 'user_text', text });
  rec({ type: 'agent_text', text: 'ok: ' + text.split('\\n').pop() });
  rec({ type: 'turn_end' });
};
rec({ type: 'session', agentSession: process.env.RESUMABLE_SESSION });
${pasteInput('resumable ready> ')}
onMessage(answer);
`;

const resumableDropIn = (cli: string, dir: string) => `import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
let n = 0;
export default (kit) => ({
  name: 'resumable',
  title: 'Resumable CLI',
  families: [],
  capabilities: { resume: true, fork: false },
  async detect() { return { installed: true, installHint: 'written by test/tab-session.test.ts' }; },
  statusFromScreen: (lines) => (lines.some((l) => /resumable ready> $/.test(l.trimEnd() + ' ')) ? 'idle' : undefined),
  launch(opts) {
    n++;
    appendFileSync(join(${JSON.stringify(dir)}, 'launches.jsonl'), JSON.stringify({ n, resume: opts.resume ?? null }) + '\\n');
    const log = join(${JSON.stringify(dir)}, 'log-' + n + '.jsonl');
    appendFileSync(log, '');
    return {
      command: process.execPath,
      args: [${JSON.stringify(cli)}],
      env: { RESUMABLE_LOG: log, RESUMABLE_SESSION: opts.resume ?? 'session-' + n },
      cwd: opts.cwd,
    };
  },
  async ingest(opts) {
    const tail = await kit.tailJsonl(join(${JSON.stringify(dir)}, 'log-' + n + '.jsonl'), { onRecord: (r) => opts.onEvent(r) });
    return { agentSession: undefined, skipped: 0, dispose: () => tail.dispose() };
  },
});
`;

interface Launch {
  n: number;
  resume: string | null;
}

const r = suite('tab-session reset');
let rw: { home: string; registry: Registry; conv: OpenConversation; terminal: TabTerminal; tabs: Tab[]; session: TabSession } | undefined;
r.after.each(async () => {
  if (!rw) return;
  await rw.session.dispose();
  rw.terminal.dispose();
  for (const t of rw.tabs) await t.dispose();
  await rw.registry.dispose();
  rmSync(rw.home, { recursive: true, force: true });
  rw = undefined;
  await noTimerLeft();
});

r(
  'after a reset the agent is stopped, the same agent is armed, and the next send starts it with no resume and a brief without the hidden entries',
  async () => {
    const home = mkdtempSync(join(tmpdir(), 'baton-tabsession-reset-'));
    const repo = join(home, 'repo');
    mkdirSync(repo);
    git(repo, 'init', '-q', '-b', 'main');
    const cli = join(home, 'resumable-cli.mjs');
    writeFileSync(cli, RESUMABLE_CLI);
    const plugins = join(home, 'plugins');
    mkdirSync(plugins);
    writeFileSync(join(plugins, 'resumable.mjs'), resumableDropIn(cli, home));
    const env = { ...process.env, BATON_HOME: join(home, 'baton'), XDG_CONFIG_HOME: join(home, 'config') };
    const registry = await loadRegistry({ env, builtinDir: false, pluginDirs: [plugins] });
    const conv = await createConversation(join(home, 'baton'), { cwd: repo, title: 'reset', user: { type: 'user', name: 'tester', device: 'test' } });
    const tabs: Tab[] = [];
    const terminal = new TabTerminal((launch) => {
      const tab = new Tab(launch, { cols: 100, rows: 10, baseEnv: { PATH: process.env.PATH } });
      tabs.push(tab);
      return tab;
    });
    const session = new TabSession({ conversation: conv, registry, terminal, env });
    rw = { home, registry, conv, terminal, tabs, session };
    const launches = () =>
      readFileSync(join(home, 'launches.jsonl'), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Launch);

    assert.is((await session.start('resumable')).kind, 'started');
    await until(() => session.status.current === 'idle', 'the CLI is up and reads idle');
    for (const text of ['ALPHA the first message', 'BETA the second message']) {
      assert.is((await session.send(text)).kind, 'delivered');
      await until(() => conv.transcript.entries.some((e) => e.kind === 'agent_text' && e.text === `ok: ${text}`), `the answer to ${text}`);
      await until(() => session.status.current === 'idle', 'idle again');
    }
    // An ordinary restart would resume: the CLI's session is confirmed as holding both turns.
    const cursors = () => conv.transcript.entries.filter((e) => e.kind === 'cursor');
    await until(() => cursors().some((e) => e.kind === 'cursor' && e.agentSession === 'session-1'), 'the session confirmed');
    const firstAnswer = conv.transcript.entries.find((e) => e.kind === 'agent_text' && e.text === 'ok: ALPHA the first message')!;
    const pid = tabs[0]!.pane.pid;

    const { hidden } = await resetConversation(conv, firstAnswer.seq);
    assert.ok(hidden >= 2, 'the second turn is hidden');
    await session.stopAfterReset();

    assert.not.ok(terminal.isRunning(), 'the agent is stopped');
    assert.not.ok(exists(pid), 'its process is gone');
    assert.is(session.driver?.name, 'resumable', 'the tab still belongs to the agent');
    assert.equal(session.armed, { agent: 'resumable', title: 'Resumable CLI', model: 'default' }, 'the same agent, armed to start again');
    assert.is(session.snapshot().status, 'exited');
    assert.is(launches().length, 1, 'nothing started yet');

    const sent = await session.send('GAMMA after the reset');
    assert.is(sent.kind, 'switch');
    assert.is(sent.kind === 'switch' && sent.outcome.kind, 'switched', sent.kind === 'switch' ? sent.outcome.message : '');
    const [, again] = launches();
    assert.ok(again, 'launched again');
    assert.is(again!.resume, null, 'no resume: the session remembers what the reset hid');
    // What the restarted CLI received: its log's one user message.
    const logged = readFileSync(join(home, 'log-2.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { type: string; text?: string });
    const received = logged.filter((x) => x.type === 'user_text');
    assert.is(received.length, 1, 'one message, brief and all, reached the CLI');
    const prompt = received[0]!.text ?? '';
    assert.ok(prompt.includes('ALPHA the first message'), 'the brief holds what is still shown');
    assert.not.ok(prompt.includes('BETA'), 'and not the hidden turn');
    assert.ok(prompt.trimEnd().endsWith('GAMMA after the reset'), 'the message comes after the brief');
    assert.ok(terminal.isRunning(), 'running again');
    assert.is(session.armed, undefined, 'disarmed once started');
    await until(() => conv.transcript.visible().some((e) => e.kind === 'user_message' && e.text === 'GAMMA after the reset'), 'the message recorded');
    assert.not.ok(
      conv.transcript.visible().some((e) => e.kind === 'user_message' && e.text.includes('BETA')),
      'the hidden turn stays hidden',
    );
  },
);

r.run();
