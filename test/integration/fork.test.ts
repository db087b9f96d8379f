// `baton fork`: a tab fork and a worktree fork of conversations made by `baton chat` with the
// fixture ACP agent in real git repositories; the fork's first turn replays the history up
// to the fork point and nothing after it; native forks (the fixture offering session/fork):
// when they are chosen and when a replay is, the first turn forking the agent's own session
// and sending the message alone, the fallback to the replay, a worktree fork carrying the
// session; --agent; detached HEAD; every bad input, each leaving no conversation, branch,
// worktree, checkpoint ref or carried session behind.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { main } from '../../src/cli.js';
import { bufferIo } from '../../src/commands/io.js';
import { readConversation } from '../../src/transcript/store.js';
import { fixtureDecl, writeFixtureDropIn } from '../helpers/acp-fixture.js';

let home = '';
let repo = '';
let plugins = '';
let forks = '';
const extra: string[] = [];

const sh = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
const git = (...args: string[]) => sh(repo, ...args);
const tmp = (prefix: string) => realpathSync(mkdtempSync(join(tmpdir(), prefix)));

async function run(args: string[], opts: { cwd?: string; env?: Record<string, string> } = {}) {
  const env = { ...process.env, BATON_HOME: home, XDG_CONFIG_HOME: join(home, 'config'), BATON_WORKTREES_DIR: forks, ...opts.env };
  const io = bufferIo(env, opts.cwd ?? repo);
  const code = await main(['--plugins', plugins, ...args], io);
  return { code, out: io.stdout(), err: io.stderr() };
}

interface ChatJson {
  conversation: string;
  agent: string;
  entries: { kind: string; text?: string; seq: number; checkpoint?: string }[];
}

async function chat(args: string[], cwd?: string): Promise<ChatJson> {
  const r = await run(['chat', '--json', ...args], { cwd });
  assert.is(r.code, 0, r.err);
  return JSON.parse(r.out) as ChatJson;
}

const replyOf = (r: ChatJson) =>
  r.entries
    .filter((e) => e.kind === 'agent_text')
    .map((e) => e.text)
    .join('');

function initRepo(dir: string, commit = true) {
  sh(dir, 'init', '-q', '-b', 'main');
  sh(dir, 'config', 'user.email', 't@example.com');
  sh(dir, 'config', 'user.name', 'T');
  sh(dir, 'config', 'commit.gpgsign', 'false');
  if (!commit) return;
  writeFileSync(join(dir, '.gitignore'), '.env\n');
  writeFileSync(join(dir, 'notes.txt'), 'v0');
  sh(dir, 'add', '.');
  sh(dir, 'commit', '-qm', 'init');
}

/** Three turns, the agent writing notes.txt = v1, v2, v3 (and MARK-1..3 in the messages). */
async function threeTurns(agent = 'alpha') {
  const first = await chat(['--yes', '--new', '--agent', agent, `MARK-1 [[write ${join(repo, 'notes.txt')} v1]]`]);
  const id = first.conversation;
  for (const n of [2, 3]) await chat(['--yes', '--conversation', id, `MARK-${n} [[write ${join(repo, 'notes.txt')} v${n}]]`]);
  assert.is(readFileSync(join(repo, 'notes.txt'), 'utf8'), 'v3');
  const conv = await readConversation(home, id);
  const users = conv.transcript.entries.filter((e) => e.kind === 'user_message');
  const lastSeq = conv.transcript.lastSeq;
  await conv.close();
  // The end of turn n is the entry just before message n+1.
  const endOfTurn = (n: number) => (n < users.length ? users[n]!.seq - 1 : lastSeq);
  return { id, users, endOfTurn, lastSeq };
}

const conversations = () =>
  existsSync(join(home, 'conversations'))
    ? readdirSync(join(home, 'conversations'))
        .filter((n) => !n.startsWith('.'))
        .sort()
    : [];
const branches = (dir = repo) => sh(dir, 'for-each-ref', '--format=%(refname:short)', 'refs/heads').split('\n').filter(Boolean).sort();
const checkpointOwners = (dir = repo) =>
  [
    ...new Set(
      sh(dir, 'for-each-ref', '--format=%(refname)', 'refs/baton/checkpoints/')
        .split('\n')
        .filter(Boolean)
        .map((r) => r.split('/')[3]!),
    ),
  ].sort();
const worktrees = (dir = repo) =>
  sh(dir, 'worktree', 'list', '--porcelain')
    .split('\n')
    .filter((l) => l.startsWith('worktree '))
    .map((l) => l.slice(9));

/**
 * A drop-in on the fixture agent (offering session/fork) with a carrySession of its own:
 * it writes `<carryDir>/<session>` naming the directories, and its undo removes that file.
 */
function writeCarryingDropIn(dir: string, name: string, carryDir: string) {
  const decl = fixtureDecl({ name, title: name.toUpperCase(), fork: true, env: { ACP_FIXTURE_HOME: join(home, name) } });
  writeFileSync(
    join(dir, `${name}.mjs`),
    `import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
export default (kit) => {
  const d = kit.acpDriver(${JSON.stringify(decl)});
  return { ...d, async carrySession(o) {
    mkdirSync(${JSON.stringify(carryDir)}, { recursive: true });
    const f = ${JSON.stringify(carryDir)} + '/' + o.session;
    writeFileSync(f, JSON.stringify({ cwd: o.cwd, toCwd: o.toCwd }));
    return { undo: async () => rmSync(f, { force: true }) };
  } };
};
`,
  );
}

interface ForkJson {
  id: string;
  mode: 'native' | 'replay';
  nativeSession?: { harness: string; agentSession: string };
  replayReason?: string;
  worktree?: { path: string; cwd: string };
}

async function forkJson(args: string[], env?: Record<string, string>): Promise<ForkJson> {
  const r = await run(['fork', ...args, '--json'], { env });
  assert.is(r.code, 0, r.err);
  return JSON.parse(r.out) as ForkJson;
}

/** The fixture agent's own record of a session: the prompts it holds. */
const agentTurns = (agent: string, session: string) =>
  (JSON.parse(readFileSync(join(home, agent, `${session}.json`), 'utf8')) as { turns: { prompt: string }[] }).turns.map((t) => t.prompt);

async function cursorOf(id: string, harness: string) {
  const c = await readConversation(home, id);
  const cur = c.transcript.cursor(harness);
  await c.close();
  return cur;
}

const f = suite('fork');
f.before.each(() => {
  home = tmp('baton-fork-');
  repo = tmp('baton-fork-repo-');
  forks = tmp('baton-fork-wts-');
  plugins = join(home, 'plugins');
  writeFixtureDropIn(plugins, { name: 'alpha', title: 'Alpha', env: { ACP_FIXTURE_HOME: join(home, 'alpha') } });
  writeFixtureDropIn(plugins, { name: 'beta', title: 'Beta', env: { ACP_FIXTURE_HOME: join(home, 'beta') } });
  // gamma offers session/fork; delta does too, and carries a session to another directory.
  writeFixtureDropIn(plugins, { name: 'gamma', title: 'Gamma', fork: true, env: { ACP_FIXTURE_HOME: join(home, 'gamma') } });
  writeCarryingDropIn(plugins, 'delta', join(home, 'carried'));
  initRepo(repo);
});
f.after.each(() => {
  for (const d of [home, repo, forks, ...extra.splice(0)]) rmSync(d, { recursive: true, force: true });
});

f('a tab fork holds the visible history up to the fork point; its first turn replays that, not what came after', async () => {
  const { id, endOfTurn } = await threeTurns();
  const at = endOfTurn(1);
  const r = await run(['fork', id, '--at', String(at)]);
  assert.is(r.code, 0, r.err);
  const forkId = r.out.split('\n')[0]!;
  assert.ok(forkId && forkId !== id, r.out);
  assert.match(r.err, /replays the conversation up to #\d+ with a brief/);

  const src = await readConversation(home, id);
  const fork = await readConversation(home, forkId);
  assert.equal(fork.meta.data.forkedFrom, { conversation: id, seq: at });
  assert.is(fork.meta.data.title, `${src.meta.data.title} (fork at #${at})`);
  assert.is(fork.meta.data.cwd, repo);
  assert.is(fork.meta.data.worktreeBranch, undefined);
  const expected = src.transcript.entries.filter((e) => e.seq <= at && e.kind !== 'cursor' && e.kind !== 'agent_session');
  const copied = fork.transcript.entries.slice(0, expected.length);
  assert.equal(copied, expected, 'seqs kept, native session entries left out');
  const added = fork.transcript.entries.slice(expected.length);
  assert.equal(
    added.map((e) => e.kind),
    ['notice'],
    'then only the fork notice',
  );
  assert.ok(
    src.transcript.entries.some((e) => e.seq <= at && (e.kind === 'cursor' || e.kind === 'agent_session')),
    'the source had native-session entries to leave out',
  );
  assert.is(fork.transcript.cursor('alpha'), undefined);
  assert.ok(fork.transcript.entries.some((e) => e.kind === 'notice' && /Forked from conversation/.test(e.text)));
  const srcEntries = src.transcript.entries.length;
  await src.close();
  await fork.close();

  const first = await chat(['--conversation', forkId, 'go on MARK-FORK']);
  assert.is(first.agent, 'alpha', 'the agent that ran the fork point');
  const saw = replyOf(first);
  assert.match(saw, /Fresh start/, 'a replay with the brief');
  assert.match(saw, /MARK-1/, 'history up to the fork point');
  assert.not.match(saw, /MARK-2|MARK-3/, 'nothing after the fork point');
  assert.match(saw, /go on MARK-FORK/);
  assert.not.match(saw, /\(previous:/, "not the source's native session");

  // The second turn of the fork resumes the fork's own session with only its message.
  const second = await chat(['--conversation', forkId, 'and MARK-NEXT']);
  assert.match(replyOf(second), /\(previous: .*MARK-FORK/s);
  assert.not.match(replyOf(second), /MARK-2|MARK-3/);

  const again = await readConversation(home, id);
  assert.is(again.transcript.entries.length, srcEntries, 'the source is untouched');
  await again.close();
});

f('fork --agent: the fork continues with that agent, and a plain chat on it runs it with the replay', async () => {
  const { id, endOfTurn } = await threeTurns();
  const at = endOfTurn(2);
  const r = await run(['fork', id, '--at', String(at), '--agent', 'beta', '--json']);
  assert.is(r.code, 0, r.err);
  const res = JSON.parse(r.out) as { id: string; agent: { harness: string }; switched: boolean };
  assert.is(res.agent.harness, 'beta');
  assert.ok(res.switched);
  const fork = await readConversation(home, res.id);
  const h = fork.transcript.entries.at(-1)!;
  assert.is(h.kind, 'handoff');
  if (h.kind === 'handoff') {
    assert.equal([h.from?.harness, h.to.harness, h.mode, h.briefChars, h.uptoSeq], ['alpha', 'beta', 'fresh', 0, h.seq - 1]);
  }
  assert.is(fork.transcript.currentSegment?.harness, 'beta');
  await fork.close();

  const first = await chat(['--conversation', res.id, 'beta here MARK-B']);
  assert.is(first.agent, 'beta');
  const saw = replyOf(first);
  assert.match(saw, /MARK-1/);
  assert.match(saw, /MARK-2/);
  assert.not.match(saw, /MARK-3/);
  assert.match(saw, /beta here MARK-B/);

  // Naming the agent that ran the fork point is no switch.
  const same = await run(['fork', id, '--at', String(at), '--agent', 'alpha', '--json']);
  assert.is(same.code, 0, same.err);
  assert.not.ok(JSON.parse(same.out).switched);
});

f('native: a fork at the last turn of an agent that can fork; its first turn forks that session and sends the message alone', async () => {
  const { id, lastSeq, users } = await threeTurns('gamma');
  const srcCursor = (await cursorOf(id, 'gamma'))!;
  const S = srcCursor.agentSession;
  const r = await run(['fork', id, '--at', String(lastSeq)]);
  assert.is(r.code, 0, r.err);
  const forkId = r.out.split('\n')[0]!;
  assert.match(r.err, new RegExp(`native fork: continues with gamma .*forks gamma's own session ${S}`));

  const src = await readConversation(home, id);
  const fork = await readConversation(home, forkId);
  const expected = src.transcript.entries.filter((e) => e.seq <= lastSeq && e.kind !== 'cursor' && e.kind !== 'agent_session');
  assert.equal(fork.transcript.entries.slice(0, expected.length), expected);
  const added = fork.transcript.entries.slice(expected.length);
  assert.equal(
    added.map((e) => e.kind),
    ['notice', 'cursor'],
  );
  assert.match((added[0] as { text: string }).text, new RegExp(`forks gamma's own session ${S}`));
  // Read back from disk: the cursor says the session is to be forked, not continued.
  assert.equal(fork.transcript.cursor('gamma'), { harness: 'gamma', agentSession: S, deliveredSeq: lastSeq, fork: true });
  assert.is(fork.transcript.currentSegment?.agentSession, undefined, "the source's session is not the fork's");
  const srcEntries = src.transcript.entries.length;
  await src.close();
  await fork.close();
  const srcTurns = agentTurns('gamma', S);
  assert.is(srcTurns.length, 3);

  const first = await chat(['--conversation', forkId, 'go on MARK-FORK']);
  assert.is(first.agent, 'gamma');
  // The agent got the message alone, in a session holding the source's turns (the fixture names the previous one).
  assert.is(replyOf(first), `echo: go on MARK-FORK (previous: ${users[2]!.text})`);
  const own = (await cursorOf(forkId, 'gamma'))!;
  assert.is.not(own.agentSession, S, 'a new native session');
  assert.is(own.fork, undefined, 'the fork flag is cleared');
  assert.equal(agentTurns('gamma', own.agentSession), [...srcTurns, 'go on MARK-FORK']);
  assert.equal(agentTurns('gamma', S), srcTurns, "the source's session is as it was");

  const next = await chat(['--conversation', forkId, 'and MARK-NEXT']);
  assert.is(replyOf(next), 'echo: and MARK-NEXT (previous: go on MARK-FORK)', 'the fork continues its own session');
  const back = await chat(['--conversation', id, 'source again']);
  assert.is(replyOf(back), `echo: source again (previous: ${users[2]!.text})`, 'resuming the source does not see the fork');
  const again = await readConversation(home, id);
  assert.is(again.transcript.entries.filter((e) => e.seq <= srcEntries).length, srcEntries);
  await again.close();
});

f('replay, not native: not the last turn, another agent, an agent that cannot fork, a reset since the session began', async () => {
  const { id, lastSeq, endOfTurn } = await threeTurns('gamma');
  const S = (await cursorOf(id, 'gamma'))!.agentSession;
  const early = await forkJson([id, '--at', String(endOfTurn(1))]);
  assert.is(early.mode, 'replay');
  assert.match(early.replayReason!, /is not where the conversation ends/);
  assert.is(await cursorOf(early.id, 'gamma'), undefined);
  // The user message of the last turn: the agent's reply came after it.
  const mid = await forkJson([id, '--at', String(endOfTurn(2) + 1)]);
  assert.is(mid.mode, 'replay');
  const other = await forkJson([id, '--at', String(lastSeq), '--agent', 'beta']);
  assert.is(other.mode, 'replay');
  assert.match(other.replayReason!, /another agent \(beta\)/);

  const a = await chat(['--new', '--agent', 'alpha', 'alpha cannot fork']);
  const ac = await readConversation(home, a.conversation);
  const alphaAt = ac.transcript.lastSeq;
  await ac.close();
  const cannot = await forkJson([a.conversation, '--at', String(alphaAt)]);
  assert.is(cannot.mode, 'replay');
  assert.match(cannot.replayReason!, /Alpha does not offer to fork a session/);

  // A reset hides turn 3, which gamma's session still holds: forking it would bring turn 3 back.
  assert.is((await run(['reset', id, '--to', String(endOfTurn(2))])).code, 0);
  const afterReset = await forkJson([id, '--at', String(endOfTurn(2))]);
  assert.is(afterReset.mode, 'replay');
  assert.match(afterReset.replayReason!, /a reset happened since gamma's session/);
  // The next turn after the reset is a replay into a new session; that one can be forked.
  await chat(['--conversation', id, 'after the reset MARK-R']);
  const conv = await readConversation(home, id);
  const R = conv.transcript.cursor('gamma')!.agentSession;
  const end = conv.transcript.lastSeq;
  await conv.close();
  assert.is.not(R, S);
  const fresh = await forkJson([id, '--at', String(end)]);
  assert.is(fresh.mode, 'native');
  assert.equal(fresh.nativeSession, { harness: 'gamma', agentSession: R });
});

f('a native fork whose session cannot be forked any more falls back to the replay with the brief', async () => {
  const { id, lastSeq } = await threeTurns('gamma');
  const r = await forkJson([id, '--at', String(lastSeq)]);
  assert.is(r.mode, 'native');
  // gamma's own session store is gone: session/fork fails before the prompt is sent.
  rmSync(join(home, 'gamma'), { recursive: true, force: true });
  const first = await run(['chat', '--json', '--conversation', r.id, 'fork anyway MARK-F']);
  assert.is(first.code, 0, first.err);
  assert.match(first.err, /forking gamma session .* failed; starting fresh with the full brief/);
  const res = JSON.parse(first.out) as ChatJson;
  const saw = replyOf(res);
  assert.match(saw, /Fresh start/);
  assert.match(saw, /MARK-1/);
  assert.match(saw, /MARK-3/);
  assert.match(saw, /fork anyway MARK-F/);
  assert.ok(res.entries.some((e) => e.kind === 'notice' && /Forking Gamma's own session .* failed/.test(e.text ?? '')));
  const own = (await cursorOf(r.id, 'gamma'))!;
  assert.is(own.fork, undefined);
  const next = await chat(['--conversation', r.id, 'then MARK-G']);
  assert.is(replyOf(next).slice(0, 'echo: then MARK-G (previous: '.length), 'echo: then MARK-G (previous: ', "the replayed session is the fork's own now");
});

f('a worktree fork at the last turn carries the session and is native; a fork undone later removes the carried copy', async () => {
  const { id, lastSeq, users } = await threeTurns('delta');
  const S = (await cursorOf(id, 'delta'))!.agentSession;
  const carried = join(home, 'carried', S);
  mkdirSync(join(home, 'config', 'baton'), { recursive: true });
  const settings = join(home, 'config', 'baton', 'settings.json');
  writeFileSync(settings, JSON.stringify({ worktreeSetup: [process.execPath, '-e', 'process.exit(7)'] }));
  await failsCleanly(['fork', id, '--at', String(lastSeq), '--worktree', '--name', 'undone'], 2, /exited with 7; the fork was undone/);
  assert.not.ok(existsSync(carried), 'the carried session went with the fork');
  rmSync(settings);

  const r = await forkJson([id, '--at', String(lastSeq), '--worktree', '--name', 'carry']);
  assert.is(r.mode, 'native');
  assert.equal(r.nativeSession, { harness: 'delta', agentSession: S });
  assert.equal(JSON.parse(readFileSync(carried, 'utf8')), { cwd: repo, toCwd: r.worktree!.cwd });
  const first = await chat(['--conversation', r.id, 'in the worktree MARK-WT']);
  assert.is(replyOf(first), `echo: in the worktree MARK-WT (previous: ${users[2]!.text})`);

  // An agent that cannot carry its session there: the worktree fork is a replay.
  const g = await threeTurns('gamma');
  const gr = await forkJson([g.id, '--at', String(g.lastSeq), '--worktree', '--name', 'nocarry']);
  assert.is(gr.mode, 'replay');
  assert.match(gr.replayReason!, /Gamma cannot carry its own session into the worktree/);
});

f('a worktree fork at an earlier turn: branch baton/<name> beside the repository, files as they were then, .batoninclude copied, setup run', async () => {
  writeFileSync(join(repo, '.env'), 'SECRET=local\n');
  writeFileSync(join(repo, '.batoninclude'), '# local files\n.env\n');
  const { id, endOfTurn, users } = await threeTurns();
  const at = endOfTurn(1);
  mkdirSync(join(home, 'config', 'baton'), { recursive: true });
  writeFileSync(
    join(home, 'config', 'baton', 'settings.json'),
    JSON.stringify({ worktreeSetup: [process.execPath, '-e', "require('fs').writeFileSync('setup-ran', process.cwd())"] }),
  );
  const path = join(dirname(repo), `${basename(repo)}-try1`);
  extra.push(path);
  const r = await run(['fork', id, '--at', String(at), '--worktree', '--name', 'try1'], { env: { BATON_WORKTREES_DIR: '' } });
  assert.is(r.code, 0, r.err);
  const [forkId, wtLine, branchLine] = r.out.trim().split('\n');
  assert.is(wtLine, `worktree ${path}`);
  assert.is(branchLine, 'branch baton/try1');
  assert.match(r.err, new RegExp(`the checkpoint of #${users[1]!.seq}`));
  assert.match(r.err, /base: main/);

  assert.is(readFileSync(join(path, 'notes.txt'), 'utf8'), 'v1', 'the files as they were after turn 1');
  assert.is(readFileSync(join(path, '.env'), 'utf8'), 'SECRET=local\n', '.batoninclude copied');
  assert.is(readFileSync(join(path, 'setup-ran'), 'utf8'), path, 'setup ran in the worktree');
  assert.is(sh(path, 'rev-parse', '--abbrev-ref', 'HEAD').trim(), 'baton/try1');
  assert.is(sh(path, 'rev-parse', 'HEAD').trim(), users[1]!.checkpoint);
  assert.is(readFileSync(join(repo, 'notes.txt'), 'utf8'), 'v3', 'the source worktree untouched');
  assert.is(git('rev-parse', '--abbrev-ref', 'HEAD').trim(), 'main');

  const fork = await readConversation(home, forkId!);
  assert.is(fork.meta.data.cwd, path);
  assert.is(fork.meta.data.worktreeBranch, 'baton/try1');
  assert.is(fork.meta.data.baseBranch, 'main');
  await fork.close();
  // The copied message's checkpoint is held under the fork's own id too.
  assert.is(git('rev-parse', `refs/baton/checkpoints/${forkId}/${users[0]!.seq}`).trim(), users[0]!.checkpoint);

  // The fork runs in its worktree: its first message's checkpoint is taken there.
  const first = await chat(['--conversation', forkId!, 'in the worktree MARK-WT']);
  assert.not.match(replyOf(first), /MARK-2|MARK-3/);
  const cp = first.entries.find((e) => e.kind === 'user_message')!.checkpoint!;
  assert.is(git('show', `${cp}:notes.txt`), 'v1');
  assert.is(git('show', `${cp}:setup-ran`), path);
});

f('a worktree fork at the last turn takes a checkpoint of the working tree now; the name defaults to the new id', async () => {
  const { id, lastSeq } = await threeTurns();
  writeFileSync(join(repo, 'notes.txt'), 'by hand after the last turn');
  writeFileSync(join(repo, 'untracked.txt'), 'new');
  const r = await run(['fork', id, '--at', String(lastSeq), '--worktree', '--json']);
  assert.is(r.code, 0, r.err);
  const res = JSON.parse(r.out) as { id: string; worktree: { path: string; branch: string; commit: string; from: { kind: string; ref: string } } };
  assert.is(res.worktree.branch, `baton/${res.id}`);
  assert.is(res.worktree.path, join(forks, `${basename(repo)}-${res.id}`));
  assert.is(res.worktree.from.kind, 'now');
  assert.is(git('rev-parse', res.worktree.from.ref).trim(), res.worktree.commit);
  assert.ok(res.worktree.from.ref.startsWith(`refs/baton/checkpoints/${res.id}/`));
  assert.is(readFileSync(join(res.worktree.path, 'notes.txt'), 'utf8'), 'by hand after the last turn');
  assert.is(readFileSync(join(res.worktree.path, 'untracked.txt'), 'utf8'), 'new');
});

f('detached HEAD: a worktree fork is refused (exit 7, nothing made), the tab fork offered works', async () => {
  const { id, lastSeq } = await threeTurns();
  const head = git('rev-parse', 'HEAD').trim();
  git('checkout', '-q', '--detach');
  const r = await failsCleanly(
    ['fork', id, '--at', String(lastSeq), '--worktree', '--name', 'det'],
    7,
    new RegExp(`has a detached HEAD \\(at commit ${head.slice(0, 12)}\\)`),
  );
  assert.match(r.err, new RegExp(`baton fork ${id} --at ${lastSeq}\\n`));
  const tab = await run(['fork', id, '--at', String(lastSeq)]);
  assert.is(tab.code, 0, tab.err);
});

/** Runs a fork that must fail with `code`, and checks nothing of it was made. */
async function failsCleanly(args: string[], code: number, message: RegExp, opts: { cwd?: string; dir?: string; env?: Record<string, string> } = {}) {
  const dir = opts.dir ?? repo;
  const before = {
    convs: conversations(),
    branches: existsSync(join(dir, '.git')) ? branches(dir) : [],
    refs: existsSync(join(dir, '.git')) ? checkpointOwners(dir) : [],
    forks: readdirSync(forks),
  };
  const r = await run(args, { cwd: opts.cwd, env: opts.env });
  assert.is(r.code, code, `${args.join(' ')}: ${r.err}`);
  assert.match(r.err, /^baton: /);
  assert.match(r.err, message);
  assert.match(r.err, /\n {2}hint: /, 'a hint');
  assert.equal(conversations(), before.convs, 'no new conversation');
  if (existsSync(join(dir, '.git'))) {
    assert.equal(branches(dir), before.branches, 'no new branch');
    assert.equal(checkpointOwners(dir), before.refs, 'no checkpoint refs of a fork');
    assert.equal(worktrees(dir), [dir], 'no worktree');
  }
  assert.equal(readdirSync(forks), before.forks, 'no worktree directory');
  return r;
}

f('bad input: not a git repository (6, offers the tab fork), no commits yet (8), seq out of range or hidden (9)', async () => {
  const plain = tmp('baton-fork-plain-');
  extra.push(plain);
  const p = await chat(['--new', '--agent', 'alpha', 'no git here'], plain);
  const notRepo = await failsCleanly(['fork', p.conversation, '--at', '1', '--worktree'], 6, /is not a git repository\. A worktree fork needs git/, {
    cwd: plain,
    dir: plain,
  });
  assert.match(notRepo.err, new RegExp(`hint: fork into a tab instead .*: baton fork ${p.conversation} --at 1\\n`));
  // ...and the tab fork it offers works there.
  const tab = await run(['fork', p.conversation, '--at', '1'], { cwd: plain });
  assert.is(tab.code, 0, tab.err);

  const fresh = tmp('baton-fork-unborn-');
  extra.push(fresh);
  initRepo(fresh, false);
  writeFileSync(join(fresh, 'a.txt'), 'a');
  const u = await chat(['--new', '--agent', 'alpha', 'before any commit'], fresh);
  assert.ok(u.entries.find((e) => e.kind === 'user_message')!.checkpoint, 'checkpoints work before the first commit');
  await failsCleanly(['fork', u.conversation, '--at', '1', '--worktree'], 8, /has no commits yet/, { cwd: fresh, dir: fresh });

  const { id, lastSeq, endOfTurn } = await threeTurns();
  await failsCleanly(['fork', id, '--at', String(lastSeq + 50)], 9, /--at \d+ is not an entry of conversation/);
  await failsCleanly(['fork', id, '--at', '0', '--worktree'], 9, /--at 0 is not an entry/);
  await failsCleanly(['fork', id, '--at', 'x'], 2, /--at must be a whole number \(an entry's seq\), got "x"/);
  await failsCleanly(['fork', id, '--at='], 2, /--at must be a whole number \(an entry's seq\), got ""/);
  await failsCleanly(['fork', 'nosuchid', '--at', '1'], 2, /no conversation nosuchid/);
  const reset = await run(['reset', id, '--to', String(endOfTurn(1))]);
  assert.is(reset.code, 0, reset.err);
  await failsCleanly(['fork', id, '--at', String(endOfTurn(2)), '--worktree'], 9, /is hidden by a reset/);
});

f('bad input: branch or path already there (10), bad names, unknown agent, a failing setup command (2)', async () => {
  const { id, lastSeq, endOfTurn } = await threeTurns();
  git('branch', 'baton/taken');
  await failsCleanly(['fork', id, '--at', String(lastSeq), '--worktree', '--name', 'taken'], 10, /branch baton\/taken already exists/);
  mkdirSync(join(forks, `${basename(repo)}-busy`));
  await failsCleanly(['fork', id, '--at', String(lastSeq), '--worktree', '--name', 'busy'], 10, /-busy already exists/);
  await failsCleanly(['fork', id, '--at', String(lastSeq), '--name', 'x'], 2, /needs --worktree/);
  await failsCleanly(['fork', id, '--at', String(lastSeq), '--worktree', '--name', 'a/b'], 2, /cannot name a fork/);
  await failsCleanly(['fork', id, '--at', String(lastSeq), '--worktree', '--agent', 'nobody'], 2, /unknown agent "nobody"/);
  await failsCleanly(['fork', id, '--at', String(lastSeq), '--worktree'], 2, /BATON_WORKTREES_DIR must be an absolute path/, {
    env: { BATON_WORKTREES_DIR: 'rel/dir' },
  });

  mkdirSync(join(home, 'config', 'baton'), { recursive: true });
  const settings = join(home, 'config', 'baton', 'settings.json');
  writeFileSync(settings, '{"worktreeSetup": "npm ci"}');
  await failsCleanly(['fork', id, '--at', String(lastSeq), '--worktree'], 2, /worktreeSetup in .* must be a non-empty array/);
  // A setup that fails after the worktree and the conversation were made: all of it is undone,
  // the checkpoint taken for the last turn included.
  writeFileSync(settings, JSON.stringify({ worktreeSetup: [process.execPath, '-e', 'process.exit(7)'] }));
  await failsCleanly(['fork', id, '--at', String(lastSeq), '--worktree', '--name', 'setupfails'], 2, /setup command .* exited with 7; the fork was undone/);
  await failsCleanly(['fork', id, '--at', String(endOfTurn(1)), '--worktree'], 2, /exited with 7/);
});

f.run();
