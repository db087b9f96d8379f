// `baton chat` and the headless handoff, against real ACP agents (the fixture agent in
// test/fixtures/acp-agent, declared as two drop-ins with separate session stores).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, rmSync, readdirSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { main } from '../../src/cli.js';
import { bufferIo } from '../../src/commands/io.js';
import { readConversation } from '../../src/transcript/store.js';
import { writeFixtureDropIn } from '../helpers/acp-fixture.js';
import { alive, signalGroup } from '../../src/proc/index.js';
import { until } from '../helpers/wait.js';
import { builtBaton } from '../helpers/built-baton.js';

let home = '';
let cwd = '';
let plugins = '';

async function run(args: string[], stdin?: string | Buffer) {
  const env = { ...process.env, BATON_HOME: home, XDG_CONFIG_HOME: join(home, 'config') };
  const io = bufferIo(env, cwd, stdin);
  const code = await main(['--plugins', plugins, ...args], io);
  return { code, out: io.stdout(), err: io.stderr() };
}

async function chat(args: string[]) {
  const r = await run(['chat', '--json', ...args]);
  assert.is(r.code, 0, r.err);
  return JSON.parse(r.out) as {
    conversation: string;
    agent: string;
    model: string;
    handoff: { from: string | null; fromModel?: string; mode: string; briefChars: number } | null;
    entries: { kind: string; text?: string }[];
  };
}

const replyOf = (r: Awaited<ReturnType<typeof chat>>) =>
  r.entries
    .filter((e) => e.kind === 'agent_text')
    .map((e) => e.text)
    .join('');

const c = suite('chat');
c.before.each(() => {
  home = mkdtempSync(join(tmpdir(), 'baton-chat-'));
  cwd = mkdtempSync(join(tmpdir(), 'baton-chat-cwd-'));
  plugins = join(home, 'plugins');
  writeFixtureDropIn(plugins, { name: 'alpha', title: 'Alpha', env: { ACP_FIXTURE_HOME: join(home, 'alpha-sessions') } });
  writeFixtureDropIn(plugins, { name: 'beta', title: 'Beta', env: { ACP_FIXTURE_HOME: join(home, 'beta-sessions') } });
  writeFixtureDropIn(plugins, { name: 'ghost', title: 'Ghost', command: join(home, 'no-such-binary') });
});
c.after.each(() => {
  rmSync(home, { recursive: true, force: true });
  rmSync(cwd, { recursive: true, force: true });
});

c(
  '--mode plan or accept-edits for an agent whose driver does not honour modes is refused before anything is recorded; --yes with --mode plan is refused',
  async () => {
    const plan = await run(['chat', '--new', '--agent', 'alpha', '--mode', 'plan', 'plan it MARK-PLAN']);
    assert.is(plan.code, 2, plan.err);
    assert.match(plan.err, /Alpha \(alpha\) cannot run a turn in plan mode/);
    const both = await run(['chat', '--new', '--agent', 'alpha', '--yes', '--mode', 'plan', 'plan it MARK-PLAN']);
    assert.is(both.code, 2, both.err);
    assert.match(both.err, /--yes is full access and cannot go with --mode plan/);
    const convs = join(home, 'conversations');
    assert.equal(existsSync(convs) ? readdirSync(convs) : [], [], 'no conversation was kept');
    const full = await chat(['--new', '--agent', 'alpha', '--mode', 'full-access', 'hello MARK-FULL']);
    assert.match(replyOf(full), /MARK-FULL/, 'full access is --yes: any agent takes it');
  },
);

c('a new conversation: one turn, entries recorded with authors, text and usage', async () => {
  const r = await chat(['--new', '--agent', 'alpha', 'hello MARK-ONE']);
  assert.is(r.agent, 'alpha');
  assert.match(replyOf(r), /echo: hello MARK-ONE/);
  const kinds = r.entries.map((e) => e.kind);
  assert.ok(kinds.includes('user_message'));
  assert.ok(kinds.includes('reasoning'));
  assert.ok(kinds.includes('turn_end'));
  const conv = await readConversation(home, r.conversation);
  const seg = conv.transcript.currentSegment!;
  assert.is(seg.harness, 'alpha');
  assert.ok(seg.agentSession, 'native session recorded');
  assert.equal(conv.transcript.cursor('alpha')?.agentSession, seg.agentSession);
  await conv.close();
});

c('a handoff: the target gets the brief with earlier markers and the message; back again resumes with only the delta', async () => {
  const first = await chat(['--new', '--agent', 'alpha', 'remember MARK-ALPHA']);
  const id = first.conversation;
  const toBeta = await chat(['--conversation', id, '--agent', 'beta', 'continue MARK-BETA']);
  // fromModel: the model alpha's segment ran, as its own turn reported it.
  assert.equal(toBeta.handoff, { from: 'alpha', fromModel: first.model, mode: 'fresh', briefChars: toBeta.handoff!.briefChars });
  const betaSaw = replyOf(toBeta);
  assert.match(betaSaw, /\[baton handoff brief\]/);
  assert.match(betaSaw, /MARK-ALPHA/);
  assert.match(betaSaw, /continue MARK-BETA/);

  const back = await chat(['--conversation', id, '--agent', 'alpha', 'and now MARK-BACK']);
  assert.is(back.handoff!.mode, 'resume');
  const alphaSaw = replyOf(back);
  // Its own session came back: the fixture names the previous prompt of that session.
  assert.match(alphaSaw, /\(previous: remember MARK-ALPHA\)/);
  // Only the delta: beta's turn is there, alpha's own first message is not repeated in the prompt.
  const prompt = alphaSaw.slice(0, alphaSaw.indexOf('(previous:'));
  assert.match(prompt, /MARK-BETA/);
  assert.match(prompt, /Returning/);
  // (beta's reply quotes the brief it got, so a fresh replay appears nested further down)
  assert.ok(prompt.indexOf('Returning:') >= 0 && prompt.indexOf('Returning:') < prompt.indexOf('Fresh start'), 'a returning delta, not a replay');
  assert.match(prompt, /only what happened after #\d+ follows/);
  assert.match(prompt, /and now MARK-BACK/);

  const conv = await readConversation(home, id);
  const handoffs = conv.transcript.entries.filter((e) => e.kind === 'handoff');
  assert.is(handoffs.length, 3);
  await conv.close();
});

c('continuing the same agent resumes its session and sends only the message', async () => {
  const a = await chat(['--new', '--agent', 'alpha', 'first MARK-1']);
  const b = await chat(['--conversation', a.conversation, 'second MARK-2']);
  assert.is(b.handoff, null);
  assert.is(replyOf(b), 'echo: second MARK-2 (previous: first MARK-1)');
});

c('a failed native resume falls back to a fresh start with the full brief', async () => {
  const a = await chat(['--new', '--agent', 'alpha', 'first MARK-X']);
  await chat(['--conversation', a.conversation, '--agent', 'beta', 'beta turn']);
  // alpha's own session store is gone: session/load fails.
  rmSync(join(home, 'alpha-sessions'), { recursive: true, force: true });
  const back = await run(['chat', '--json', '--conversation', a.conversation, '--agent', 'alpha', 'back MARK-Y']);
  assert.is(back.code, 0, back.err);
  assert.match(back.err, /resuming alpha session .* failed; starting fresh/);
  const r = JSON.parse(back.out);
  const text = r.entries
    .filter((e: { kind: string }) => e.kind === 'agent_text')
    .map((e: { text: string }) => e.text)
    .join('');
  assert.match(text, /Fresh start/);
  assert.match(text, /first MARK-X/);
  assert.match(text, /back MARK-Y/);
  assert.ok(r.entries.some((e: { kind: string; text?: string }) => e.kind === 'notice' && /failed/.test(e.text ?? '')));
});

c('bad input and faults: exit codes, messages, nothing lost', async () => {
  const unknown = await run(['chat', '--new', '--agent', 'nobody', 'hi']);
  assert.is(unknown.code, 2);
  assert.match(unknown.err, /unknown agent "nobody"/);
  assert.match(unknown.err, /alpha/);
  assert.ok(!existsSync(join(home, 'conversations')) || readdirSync(join(home, 'conversations')).length === 0, 'nothing created');

  const missing = await run(['chat', '--new', '--agent', 'ghost', 'hi']);
  assert.is(missing.code, 3);
  assert.match(missing.err, /Ghost \(ghost\) is not installed/);
  assert.match(missing.err, /hint: /);

  const a = await chat(['--new', '--agent', 'alpha', 'ok']);
  const crash = await run(['chat', '--conversation', a.conversation, 'please [[crash]] MARK-KEPT']);
  assert.is(crash.code, 4, crash.err);
  const conv = await readConversation(home, a.conversation);
  const tail = conv.transcript.entries.slice(-4);
  assert.ok(
    conv.transcript.entries.some((e) => e.kind === 'user_message' && e.text.includes('MARK-KEPT')),
    'message kept',
  );
  assert.ok(
    tail.some((e) => e.kind === 'error'),
    'error entry',
  );
  await conv.close();

  const timeout = await run(['chat', '--new', '--agent', 'alpha', '--timeout', '2', 'wait [[slow]]']);
  assert.is(timeout.code, 4);
  assert.match(timeout.err, /did not finish the turn within 2 s/);
  // What was typed is quoted back, not the NaN a number option made of it.
  const badTimeout = await run(['chat', '--new', '--agent', 'alpha', '--timeout', 'abc', 'never sent']);
  assert.is(badTimeout.code, 2, badTimeout.err);
  assert.match(badTimeout.err, /--timeout must be a positive number of seconds, got "abc"/);
  const badDays = await run(['transcript', 'prune', '--older-than', 'abc']);
  assert.is(badDays.code, 2, badDays.err);
  assert.match(badDays.err, /--older-than must be a whole number \(days, at least 1\), got "abc"/);
});

c('a new conversation whose turn fails before the agent ran (not installed, exit 3) leaves no conversation behind', async () => {
  const missing = await run(['chat', '--new', '--agent', 'ghost', 'hi MARK-GHOST']);
  assert.is(missing.code, 3, missing.err);
  assert.match(missing.err, /Ghost \(ghost\) is not installed/);
  const left = existsSync(join(home, 'conversations')) ? readdirSync(join(home, 'conversations')) : [];
  assert.equal(left, [], 'no empty conversation, no leftover directory');
  const list = await run(['transcript', 'list']);
  assert.is(list.out, 'no conversations yet\n');

  // One that got as far as the agent keeps the message, as before.
  const crash = await run(['chat', '--new', '--agent', 'alpha', 'please [[crash]] MARK-STAYS']);
  assert.is(crash.code, 4, crash.err);
  const kept = readdirSync(join(home, 'conversations'));
  assert.is(kept.length, 1);
  const conv = await readConversation(home, kept[0]!);
  assert.ok(conv.transcript.entries.some((e) => e.kind === 'user_message' && e.text.includes('MARK-STAYS')));
  await conv.close();
});

c('a message that is not valid UTF-8 is refused with exit 2 naming the byte; nothing is sent or created', async () => {
  const a = await chat(['--new', '--agent', 'alpha', 'ok MARK-UTF']);
  const before = readFileSync(join(home, 'conversations', a.conversation, 'transcript.jsonl'));
  const cli = builtBaton();
  const env = { ...process.env, BATON_HOME: home, XDG_CONFIG_HOME: join(home, 'config') };
  // Raw bytes reach argv only through something that writes them: a shell's printf (Node's own argv strings are UTF-8).
  for (const target of [
    ['--new', '--agent', 'alpha'],
    ['--conversation', a.conversation],
  ]) {
    const r = spawnSync(
      '/bin/sh',
      ['-c', 'exec "$@" "$(printf \'caf\\351 MARK-LATIN1\')"', 'sh', process.execPath, cli, '--plugins', plugins, 'chat', ...target],
      { cwd, env, encoding: 'utf8' },
    );
    assert.is(r.status, 2, r.stderr);
    assert.is(r.stderr.split('\n')[0], 'baton: the message is not valid UTF-8 (byte 0xE9 at byte 3); nothing was sent');
    assert.match(r.stderr, /\n {2}hint: convert it to UTF-8 first/);
  }
  assert.equal(readdirSync(join(home, 'conversations')), [a.conversation], 'no conversation created');
  assert.ok(readFileSync(join(home, 'conversations', a.conversation, 'transcript.jsonl')).equals(before), 'the conversation is unchanged');
  // U+FFFD typed on purpose is text like any other.
  const typed = await chat(['--conversation', a.conversation, 'a replacement character \uFFFD on purpose']);
  assert.match(replyOf(typed), /\uFFFD on purpose/);
});

c('a conversation open in another writer is refused with exit 5', async () => {
  const a = await chat(['--new', '--agent', 'alpha', 'ok']);
  // A real second process holds the writer lock.
  const holder = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      '-e',
      `import { openConversation } from ${JSON.stringify(new URL('../../src/transcript/store.ts', import.meta.url).href)}; await openConversation(${JSON.stringify(home)}, ${JSON.stringify(a.conversation)}, { write: true }); console.log('locked'); setInterval(() => {}, 1000);`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'], detached: true },
  );
  try {
    await new Promise<void>((resolve, reject) => {
      holder.stdout!.on('data', (d) => String(d).includes('locked') && resolve());
      holder.on('exit', () => reject(new Error('holder exited')));
    });
    const r = await run(['chat', '--conversation', a.conversation, 'hi']);
    assert.is(r.code, 5);
    assert.match(r.err, new RegExp(`pid ${holder.pid}`));
  } finally {
    signalGroup(holder.pid!, 'SIGKILL');
  }
});

c("Ctrl-C cancels the turn: exit 130, the agent's whole group ended (a helper that ignores SIGTERM too), the message kept", async () => {
  // The built CLI in a process of its own, so a real SIGINT reaches it.
  const cli = builtBaton();
  const env = { ...process.env, BATON_HOME: home, XDG_CONFIG_HOME: join(home, 'config') };
  const child = spawn(process.execPath, [cli, '--plugins', plugins, 'chat', '--new', '--agent', 'alpha', 'please [[hang]] MARK-CANCEL'], {
    cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let err = '';
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  const hang = join(home, 'alpha-sessions', 'hang.json');
  try {
    await until(() => existsSync(hang), 'the agent reached [[hang]]', 30_000);
    const pids = JSON.parse(readFileSync(hang, 'utf8')) as { agent: number; helper: number; pgid: number };
    process.kill(child.pid!, 'SIGINT');
    const code = await exited;
    assert.is(code, 130, err);
    assert.match(err, /SIGINT: cancelling the turn/);
    assert.match(err, /the turn was cancelled \(SIGINT\)/);
    assert.match(err, /baton transcript show/);
    assert.not.ok(alive(pids.helper), 'the helper that ignores SIGTERM is gone');
    assert.not.ok(alive(pids.agent), 'the agent is gone');
    const id = readdirSync(join(home, 'conversations'))[0]!;
    const conv = await readConversation(home, id);
    assert.ok(
      conv.transcript.entries.some((e) => e.kind === 'user_message' && e.text.includes('MARK-CANCEL')),
      'the message is kept',
    );
    await conv.close();
  } finally {
    signalGroup(child.pid!, 'SIGKILL');
  }
});

c('a message from --file or standard input, however long (10 MB), reaches the agent whole and is recorded as it was; argv never carries it', async () => {
  const big = `start MARK-BIG ${'lorem ipsum dolor '.repeat(600_000)} end MARK-BIG-END`;
  assert.ok(Buffer.byteLength(big) > 10_000_000);
  const file = join(cwd, 'message.txt');
  writeFileSync(file, big);
  const viaFile = await run(['chat', '--json', '--new', '--agent', 'alpha', '--file', 'message.txt']);
  assert.is(viaFile.code, 0, viaFile.err);
  const a = JSON.parse(viaFile.out) as { conversation: string; entries: { kind: string; text?: string }[] };
  assert.is(a.entries.find((e) => e.kind === 'user_message')?.text, big);
  assert.match(
    a.entries
      .filter((e) => e.kind === 'agent_text')
      .map((e) => e.text)
      .join(''),
    /MARK-BIG-END/,
    'the agent saw the end of it',
  );

  const viaStdin = await run(['chat', '--json', '--conversation', a.conversation, '-'], 'from a pipe MARK-PIPE\nsecond line');
  assert.is(viaStdin.code, 0, viaStdin.err);
  const b = JSON.parse(viaStdin.out) as { entries: { kind: string; text?: string }[] };
  assert.is(b.entries.find((e) => e.kind === 'user_message')?.text, 'from a pipe MARK-PIPE\nsecond line');
  // No argument and a pipe: the pipe is the message.
  const piped = await run(['chat', '--json', '--conversation', a.conversation], 'piped alone MARK-PIPE2');
  assert.is(piped.code, 0, piped.err);

  // A real process: 10 MB through --file, where an argument of that size fails with E2BIG.
  const p = spawnSync(process.execPath, [builtBaton(), '--plugins', plugins, 'chat', '--conversation', a.conversation, '--file', file], {
    cwd,
    env: { ...process.env, BATON_HOME: home, XDG_CONFIG_HOME: join(home, 'config') },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  assert.is(p.status, 0, p.stderr);
  assert.match(p.stdout, /MARK-BIG-END/);
});

c('a message given twice, none at all, an empty one or an unreadable file: exit 2 with a hint, nothing created', async () => {
  const before = existsSync(join(home, 'conversations')) ? readdirSync(join(home, 'conversations')).length : 0;
  for (const [args, stdin, re] of [
    [['chat', '--new', '--agent', 'alpha', 'hi', '--file', 'x.txt'], undefined, /given twice/],
    [['chat', '--new', '--agent', 'alpha'], undefined, /no message to send/],
    [['chat', '--new', '--agent', 'alpha', '-'], '   \n', /the message is empty/],
    [['chat', '--new', '--agent', 'alpha', '--file', 'missing.txt'], undefined, /cannot read the message from --file missing\.txt: no such file/],
  ] as const) {
    const r = await run([...args], stdin);
    assert.is(r.code, 2, `${args.join(' ')}: ${r.err}`);
    assert.match(r.err, re);
    assert.match(r.err, /hint:/);
  }
  const after = existsSync(join(home, 'conversations')) ? readdirSync(join(home, 'conversations')).length : 0;
  assert.is(after, before, 'no conversation was created');
});

c.run();
