// real CLIs: claude, codex
// Fork and reset from the TUI's transcript view, as a person does them: the built baton
// (dist/src/cli.js) in a real PTY, a real git repository in a temp dir, real claude against
// the fake LLM. f forks at the selected entry into a new tab (the new conversation on disk
// holds the history up to there; the new tab's claude starts ready, spending no turn, and the
// next message carries that history with it) or into a new git
// worktree (its directory on branch baton/..., claude running there); closing that tab
// offers to remove the worktree, asks again when it is dirty, and removes worktree and
// branch. A fork's tab is marked in the tab bar (↳#seq, ⎇branch). r resets to the entry:
// later entries leave the view, a restore refused over changes no checkpoint holds is forced
// on request and puts the file back, the tab says stopped and shows baton's notice instead
// of claude's last screen, and the next message goes to a fresh claude as a replay; u undoes
// the reset. Quitting with a worktree fork open says the worktree stays. In a directory that
// is no git repository the worktree fork explains why, in the TUI's terms, and the tab fork
// it offers works.
// The tests up to quit are steps of one session in one TUI, in order, on the conversation the
// first one makes; the last two are steps in a second TUI, which the first of them starts.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeLlm, bodyContains, type FakeLlm } from '../fake-llm/server.js';
import { multiCliEnv, processesWithHome, type MultiCliEnv } from '../helpers/multi-cli-env.js';
import { TestTerminal } from '../helpers/term.js';
import { until } from '../helpers/wait.js';
import { builtBaton, endServers, pickEntry, serverEnv } from '../helpers/baton-tui.js';

let fake: FakeLlm;
let menv: MultiCliEnv;
let root: string;
let repo: string;
let plain: string;
let forks: string;
let t: TestTerminal;

const batonHome = () => join(menv.dir, 'baton-home');
const convDirs = () => readdirSync(join(batonHome(), 'conversations'));
const meta = (id: string) =>
  JSON.parse(readFileSync(join(batonHome(), 'conversations', id, 'meta.json'), 'utf8')) as Record<string, unknown> & {
    cwd: string;
    forkedFrom?: { conversation: string; seq: number };
    worktreeBranch?: string;
  };
type Row = { kind?: string; text?: string; seq?: number };
const entries = (id: string): Row[] =>
  readFileSync(join(batonHome(), 'conversations', id, 'transcript.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Row)
    .filter((e) => e.kind !== undefined && e.seq !== undefined);
const texts = (id: string, kind: string) =>
  entries(id)
    .filter((e) => e.kind === kind)
    .map((e) => e.text ?? '');
const git = (dir: string, ...args: string[]) => execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8' });

function startBaton(dir: string): TestTerminal {
  return new TestTerminal([process.execPath, builtBaton(), 'open', dir], {
    cols: 120,
    rows: 36,
    cwd: dir,
    env: {
      ...menv.env,
      ...serverEnv(menv.dir),
      PWD: dir,
      BATON_HOME: batonHome(),
      BATON_WORKTREES_DIR: forks,
      XDG_CONFIG_HOME: join(menv.dir, 'config'),
      TERM: 'xterm-256color',
      LANG: 'C.UTF-8',
    },
  });
}

/** Esc alone: blessed reads an Esc followed at once by another key as Alt+key, as terminals do. */
async function pressEscape(): Promise<void> {
  t.press('Escape');
  await new Promise((r) => setTimeout(r, 400));
}

async function openClaude(): Promise<void> {
  await t.waitFor(/│Claude Code  \d[^]*│Plain shell/, 90_000, 'the agent picker listing Claude Code');
  await pickEntry(t, 'Claude Code');
  await t.waitFor(/\? for shortcuts/, 90_000, 'claude ready');
}

/** Tab n (running claude) idle, read in the tab bar: its own status, not a later tab's. */
const idle = (n: number) => new RegExp(`${n}:Claude Code(?: ↳#\\d+(?: ⎇\\S+)?)? idle(?= |$)`, 'm');

/** A message from the compose bar, and claude's reply to it (to the message alone, or after a brief). */
async function send(text: string, tab = 1): Promise<void> {
  await pressEscape();
  t.press('C-b', 'm');
  await t.waitFor(/message Claude Code|Continue with Claude Code|›/, 10_000, 'the compose bar');
  const asked = fake.requestsContaining(text).length;
  t.type(text);
  t.press('Enter');
  await until(() => fake.requestsContaining(text).length > asked, `claude asking the model about ${text}`, 90_000);
  await t.waitFor(/FAKE-LLM reply/, 90_000, `claude's reply to ${text}`);
  await t.waitFor(idle(tab), 60_000, 'claude idle again');
}

/** Opens the transcript view with the selection on the first line matching `query` (the view's search). */
async function selectInTranscript(query: string): Promise<void> {
  await pressEscape();
  t.press('C-b', 't');
  await t.waitFor(/Transcript:/, 10_000, 'the transcript view');
  t.type('/');
  await t.waitFor(/Search the transcript/, 10_000);
  t.type(`${query}\r`);
  await t.waitForGone(/Search the transcript/, 10_000);
}

const s = suite('tui fork and reset');
s.before(async () => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'baton-tui-fork-')));
  forks = join(root, 'forks');
  mkdirSync(forks);
  fake = await startFakeLlm();
  // The fork worktrees are made later under root: claude trusts root and so everything in it.
  menv = multiCliEnv({ fakeUrl: fake.url, names: ['claude', 'codex'], root, trust: [root] });
  repo = menv.cwd;
  plain = join(root, 'plain');
  mkdirSync(plain);
  execFileSync('git', ['init', '-q', '-b', 'main', repo]);
  writeFileSync(join(repo, 'a.txt'), 'one\n');
  git(repo, 'add', '.');
  git(repo, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'init');
  t = startBaton(repo);
});
s.after(async () => {
  await t?.kill();
  // The tabs run in baton's server: ended by pid with the test's socket directory.
  if (menv) await endServers(join(menv.dir, 'run'));
  await menv?.cleanup();
  await fake?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

let source: string;
let forkSeq: number;

s('three turns from the compose bar, the file changing between them', async () => {
  await openClaude();
  await send('first message ALPHA');
  writeFileSync(join(repo, 'a.txt'), 'after-alpha\n');
  await send('second message BETA');
  writeFileSync(join(repo, 'a.txt'), 'after-beta\n');
  await send('third message GAMMA');
  writeFileSync(join(repo, 'a.txt'), 'later\n');
  assert.is(convDirs().length, 1);
  source = convDirs()[0]!;
  assert.equal(texts(source, 'user_message').sort(), ['first message ALPHA', 'second message BETA', 'third message GAMMA']);
});

s('f on the second reply, t: a new tab holding the history up to there, its claude starting with it', async () => {
  await selectInTranscript('You said: second message BETA');
  t.type('f');
  const dialog = await t.waitFor(/Fork at #(\d+)/, 10_000, 'the fork dialog');
  forkSeq = Number(/Fork at #(\d+)/.exec(dialog)![1]);
  assert.match(dialog, /new tab \(same directory\)/);
  assert.match(dialog, /new worktree/);
  const at = entries(source).find((e) => e.seq === forkSeq);
  assert.is(at?.kind, 'agent_text', 'the selected entry is the reply');
  assert.match(at?.text ?? '', /You said: second message BETA/);
  t.type('t');
  // Marked as a fork of that entry, in the tab bar.
  await t.waitFor(new RegExp(`2:Claude Code ↳#${forkSeq} `), 60_000, "the fork's tab");
  // Not the last turn: claude's own session holds what came after, so the fork is a replay.
  await t.waitFor(new RegExp(`Forked at #${forkSeq} \\(replay\\)\\.`), 60_000, 'the fork said in the status line');
  await t.waitForGone(/Transcript:/, 5_000);

  const fork = convDirs().find((id) => id !== source)!;
  assert.ok(fork, 'a new conversation on disk');
  assert.equal(meta(fork).forkedFrom, { conversation: source, seq: forkSeq });
  assert.is(meta(fork).cwd, repo, 'a tab fork runs in the same directory');
  assert.equal(
    texts(fork, 'user_message')
      .filter((x) => !x.startsWith('[baton'))
      .sort(),
    ['first message ALPHA', 'second message BETA'],
  );
  assert.ok(texts(fork, 'agent_text').some((x) => x.includes('You said: second message BETA')));
  assert.not.ok(
    entries(fork).some((e) => e.seq! > forkSeq && e.kind === 'agent_text' && e.text!.includes('GAMMA')),
    'nothing after the fork point',
  );
  assert.ok(
    entries(source).some((e) => e.text?.includes('third message GAMMA')),
    'the source keeps its history',
  );

  // The fork's claude starts blank and ready: no model turn is spent on the brief alone.
  await t.waitFor(idle(2), 90_000, "the fork's claude ready");
  await t.waitFor(/Your next message carries the conversation so far to Claude Code/, 10_000, 'the compose bar says the brief waits for the next message');
  assert.is(fake.requests().filter((r) => bodyContains(r, `baton transcript show ${fork}`)).length, 0, 'nothing sent yet');
  // The next message carries it: the history up to the fork point, nothing after it, then the message.
  await send('in the fork DELTA', 2);
  const req = fake.requests().find((r) => bodyContains(r, `baton transcript show ${fork}`))!;
  assert.ok(req, 'the brief went with the message');
  assert.ok(bodyContains(req, 'second message BETA'));
  assert.ok(bodyContains(req, 'in the fork DELTA'));
  assert.not.ok(bodyContains(req, 'third message GAMMA'));
  await until(() => texts(fork, 'user_message').includes('in the fork DELTA'), 'the message recorded in the fork');
  assert.not.ok(
    texts(fork, 'user_message').some((x) => x.includes('[baton handoff brief]')),
    'the brief is never a user message',
  );
});

let wtFork: string;

s("f, w: a new git worktree on branch baton/<id> holding the files after the fork point; the new tab's claude runs there", async () => {
  await pressEscape();
  t.press('C-b', '1');
  await selectInTranscript('You said: second message BETA');
  t.type('f');
  await t.waitFor(new RegExp(`Fork at #${forkSeq}`), 10_000, 'the fork dialog');
  t.type('w');
  await t.waitFor(/3:Claude Code/, 90_000, "the worktree fork's tab");
  await t.waitFor(/Forked at #\d+ \(replay\) in the worktree/, 60_000, 'the worktree fork said in the status line');
  wtFork = convDirs().find((id) => id !== source && meta(id).worktreeBranch)!;
  assert.ok(wtFork, 'a conversation with a worktree');
  assert.match(t.row(0), new RegExp(`3:Claude Code ↳#${forkSeq} ⎇${wtFork} `), 'the tab bar names the fork point and the branch');
  const m = meta(wtFork);
  assert.is(m.worktreeBranch, `baton/${wtFork}`);
  assert.ok(existsSync(m.cwd), 'the worktree directory exists');
  assert.ok(m.cwd.startsWith(forks), `under BATON_WORKTREES_DIR: ${m.cwd}`);
  assert.match(git(repo, 'worktree', 'list', '--porcelain'), new RegExp(`worktree ${m.cwd}\\nHEAD [0-9a-f]+\\nbranch refs/heads/baton/${wtFork}`));
  assert.is(readFileSync(join(m.cwd, 'a.txt'), 'utf8'), 'after-beta\n', 'the files as they were after the fork point');
  assert.is(readFileSync(join(repo, 'a.txt'), 'utf8'), 'later\n', "the source's files untouched");
  // claude shows the directory it runs in under its banner.
  await t.waitFor((scr) => scr.includes(m.cwd), 60_000, 'claude running in the worktree');
  await t.waitFor(idle(3), 90_000, "the worktree fork's claude ready");
});

s(
  "closing the worktree fork's tab offers removal; a dirty worktree is said so and asked again; then worktree and branch are gone, the conversation stays",
  async () => {
    const { cwd } = meta(wtFork);
    writeFileSync(join(cwd, 'new-file.txt'), 'uncommitted\n');
    await pressEscape();
    t.press('C-b', 'x');
    const offer = await t.waitFor(/Fork closed/, 30_000, 'the removal offer');
    assert.match(offer, /keep the worktree and the branch/);
    assert.not.match(offer, /exited \(code/, "the closed tab's agent ending is not reported as if the tab were still there");
    assert.ok(offer.includes(`baton/${wtFork}`));
    t.type('r');
    const again = await t.waitFor(/Worktree not removed/, 30_000, 'the dirty refusal');
    assert.match(again, /uncommitted changes/);
    assert.ok(existsSync(cwd), 'nothing removed yet');
    t.type('f');
    await t.waitFor(/Removed the worktree/, 30_000, 'the removal said');
    assert.not.ok(existsSync(cwd), 'the worktree directory is gone');
    assert.not.match(git(repo, 'branch', '--list'), new RegExp(`baton/${wtFork}`), 'the branch is gone');
    assert.ok(convDirs().includes(wtFork), 'the conversation stays');
    assert.not.match(t.row(0), /3:Claude Code/);
  },
);

s('r on the second reply, restore refused over changes no checkpoint holds, forced: later entries leave the view, the file is back', async () => {
  await pressEscape();
  t.press('C-b', '1');
  await t.waitFor(/message Claude Code/, 10_000);
  await selectInTranscript('You said: second message BETA');
  t.type('r');
  const dialog = await t.waitFor(new RegExp(`Reset to #${forkSeq}`), 10_000, 'the reset dialog');
  assert.match(dialog, /hidden, not deleted/);
  assert.match(dialog, /u in this view brings them back/);
  assert.match(dialog, /Claude Code is stopped/);
  t.type('c');
  const refused = await t.waitFor(/Files not restored/, 30_000, 'the restore refusal');
  assert.match(refused, /changes that no checkpoint holds/);
  assert.is(readFileSync(join(repo, 'a.txt'), 'utf8'), 'later\n', 'nothing restored yet');
  assert.not.ok(
    entries(source).some((e) => e.kind === 'reset'),
    'nothing reset yet',
  );
  t.type('f');
  await t.waitFor(new RegExp(`Reset to #${forkSeq}: \\d+ entr(y|ies) hidden, files restored\\.`), 30_000, 'the reset said');
  const view = await t.waitFor(/reset to \[\d+\], worktree restored/, 10_000, 'the reset in the view');
  assert.not.match(view, /third message GAMMA/, 'the hidden turn left the view');
  assert.match(view, /second message BETA/);
  assert.is(readFileSync(join(repo, 'a.txt'), 'utf8'), 'after-beta\n', 'the file as it was after the turn');
  await t.waitFor(/1:Claude Code stopped /, 30_000, 'claude stopped, and the tab says so');
  t.type('q');
  await t.waitForGone(/Transcript:/, 10_000);
  // The pane: baton's notice, not claude's last screen with the hidden turn on it.
  const pane = await t.waitFor(new RegExp(`baton · conversation ${source} reset to #${forkSeq}`), 10_000, 'the notice in the pane');
  assert.match(pane, /entries after #\d+ are hidden, not deleted; the files are back as they were after #\d+\./);
  assert.match(pane, /Your next message starts Claude Code afresh, with the conversation up to #\d+ as a replay/);
  assert.match(pane, /C-b t {3}the transcript: u there undoes the reset/);
  assert.not.match(pane, /third message GAMMA/, 'the hidden turn is not on screen');
  // The pane and the compose bar are painted apart: a frame may hold the one before the other.
  const compose = await t.waitFor(/Next message starts Claude Code afresh[^]*· stopped/, 10_000, 'the compose bar says what the next message does');
  assert.not.match(compose, /third message GAMMA/);
  assert.not.match(t.row(0), /exited/);
});

s('the next message after the reset starts claude afresh with a replay that leaves the hidden turn out', async () => {
  await t.waitFor(/Next message starts Claude Code afresh/, 10_000, 'the compose bar says the next message restarts claude');
  await send('after reset DELTA');
  assert.not.match(t.screenText(), /baton · conversation/, 'the notice gave way to claude');
  const req = fake.requestsContaining('after reset DELTA')[0]!;
  assert.ok(bodyContains(req, '[baton handoff brief]'), 'a replay');
  assert.ok(bodyContains(req, 'second message BETA'));
  assert.not.ok(bodyContains(req, 'third message GAMMA'), 'the hidden turn stays out');
});

s('u in the transcript view undoes the reset: the hidden turn is back, claude (which never saw it) is stopped, the tab says so', async () => {
  await pressEscape();
  t.press('C-b', 't');
  await t.waitFor(/Transcript:/, 10_000, 'the transcript view');
  // claude's log can trail its screen: the turn the tab bar shows idle may still be ingested
  // (working again for a moment), and then u is refused as working — said so; retried.
  let q = '';
  for (let tries = 0; !q; tries++) {
    t.type('u');
    const scr = await t.waitFor(new RegExp(`Undo the reset to #${forkSeq}|is still working\\. Nothing was undone`), 10_000, 'the undo question');
    if (/Undo the reset/.test(scr)) q = scr;
    else {
      assert.ok(tries < 5, 'claude stays working');
      await t.waitForGone(/is still working\. Nothing was undone/, 15_000);
    }
  }
  assert.match(q, /hidden by the reset to #\d+ come back\. The files stay as they are\./);
  assert.match(q, /Claude Code is stopped/);
  t.type('u');
  await t.waitFor(new RegExp(`The reset to #${forkSeq} is undone`), 30_000, 'the undo said');
  await t.waitFor(/1:Claude Code stopped /, 30_000, 'claude stopped');
  t.type('/');
  await t.waitFor(/Search the transcript/, 10_000);
  t.type('third message GAMMA\r');
  await t.waitForGone(/Search the transcript/, 10_000);
  await t.waitFor(/│\s*third message GAMMA/, 10_000, 'the hidden turn back in the view');
  t.type('q');
  await t.waitForGone(/Transcript:/, 10_000);
  await t.waitFor(new RegExp(`the reset to #${forkSeq} was undone`), 10_000, 'the notice says so');
  assert.ok(
    entries(source).some((e) => e.kind === 'reset' && (e as { undoes?: number }).undoes !== undefined),
    'the undo is an entry',
  );
});

let stayed: { cwd: string; worktreeBranch?: string } | undefined;

s('quitting with a worktree fork open removes nothing and says the worktree stays', async () => {
  // A worktree fork at the last entry (the view opens there).
  await pressEscape();
  t.press('C-b', 't');
  await t.waitFor(/Transcript:/, 10_000, 'the transcript view');
  t.type('f');
  await t.waitFor(/Fork at #\d+/, 10_000, 'the fork dialog');
  t.type('w');
  await t.waitFor(/3:Claude Code ↳#\d+ ⎇/, 90_000, "the worktree fork's tab");
  const kept = convDirs().find((id) => id !== source && id !== wtFork && meta(id).worktreeBranch)!;
  assert.ok(kept, 'a second worktree fork');
  await t.waitFor(idle(3), 90_000, 'its claude ready');
  stayed = meta(kept);
});

s('quit ends every process', async () => {
  await pressEscape();
  t.press('C-b', 'q');
  await t.waitFor((scr) => /Quit baton/.test(scr) || t.exitCode !== undefined, 15_000);
  if (/Quit baton/.test(t.screenText())) t.type('y');
  await until(() => t.exitCode !== undefined, 'baton to quit', 30_000);
  assert.is(t.exitCode, 0);
  await until(() => processesWithHome(menv.home).length === 0, 'every agent process gone', 10_000);
  // (Written for sure once baton closed the conversation.)
  assert.ok(texts(source, 'user_message').includes('after reset DELTA'), 'the message after the reset is recorded');
  // The worktree fork open at the quit: still there, and said so on the terminal baton gave back.
  assert.ok(stayed && existsSync(stayed.cwd), 'the worktree stays');
  assert.match(git(repo, 'branch', '--list'), new RegExp(stayed!.worktreeBranch!.replace('/', '\\/')));
  await t.waitFor(new RegExp(`the worktree of the fork \\w+ \\(${stayed!.worktreeBranch!.replace('/', '\\/')}\\) stays`), 10_000, 'the note after quitting');
});

s('outside a git repository, a worktree fork explains why not and offers the tab fork, which works', async () => {
  await t.kill();
  t = startBaton(plain);
  const before = new Set(convDirs());
  await openClaude();
  await send('only message OMEGA');
  const src = convDirs().find((id) => !before.has(id))!;
  // The view opens on the last entry: the fork holds the whole conversation.
  await pressEscape();
  t.press('C-b', 't');
  await t.waitFor(/Transcript:/, 10_000, 'the transcript view');
  t.type('f');
  const why = await t.waitFor(/Fork at #\d+[^]*No worktree fork here:/, 10_000, 'the fork dialog, saying why there is no worktree fork');
  assert.match(why, /not a git repository/);
  assert.match(why, /press t to fork into a tab instead/, "the way on in the TUI's terms");
  assert.not.match(why, /baton fork/);
  assert.match(why, /new tab \(same directory\)/);
  assert.not.match(why, /new worktree/, 'not offered');
  assert.equal(
    convDirs().filter((id) => !before.has(id)),
    [src],
    'nothing was made',
  );
  t.type('t');
  await t.waitFor(/2:Claude Code/, 60_000, 'the tab fork');
  // The last turn, and claude can fork its own session: a native fork.
  await t.waitFor(/Forked at #\d+ \(native\)\./, 60_000, 'the native fork said in the status line');
  const fork = convDirs().find((id) => !before.has(id) && id !== src)!;
  assert.is(meta(fork).forkedFrom?.conversation, src);
  assert.is(meta(fork).cwd, plain);
  assert.ok(texts(fork, 'user_message').includes('only message OMEGA'));
  await t.waitFor(idle(2), 90_000, "the fork's claude answered");
});

s('a in the fork dialog: the fork continues with another agent, which starts on the history so far', async () => {
  await pressEscape();
  t.press('C-b', '1');
  await pressEscape();
  t.press('C-b', 't');
  await t.waitFor(/Transcript:/, 10_000, 'the transcript view');
  t.type('f');
  await t.waitFor(/another agent instead of Claude Code/, 10_000, 'the fork dialog');
  t.type('a');
  await t.waitFor(/The fork continues with[^]*│Codex CLI  \d/, 60_000, 'the agent picker');
  await pickEntry(t, 'Codex CLI');
  await t.waitFor(/continued by Codex CLI/, 10_000, 'the dialog names the chosen agent');
  t.type('t');
  await t.waitFor(/3:Codex CLI/, 60_000, "the fork's tab runs codex");
  await t.waitFor(/3:Codex CLI[^\n]* idle/, 90_000, 'codex ready');
  assert.is(fake.requests().filter((r) => r.api === 'openai-responses').length, 0, 'no turn spent on the brief alone');
  await pressEscape();
  t.press('C-b', 'm');
  await t.waitFor(/Your next message carries the conversation so far to Codex CLI/, 10_000, 'the compose bar says the brief waits');
  t.type('over to codex PSI');
  t.press('Enter');
  const req = await fake.waitForRequest((r) => r.api === 'openai-responses' && bodyContains(r, 'over to codex PSI'), 90_000, "codex's first request");
  assert.ok(bodyContains(req, '[baton handoff brief]'), 'another agent gets a replay, with the message');
  assert.ok(bodyContains(req, 'only message OMEGA'), 'of the history so far');
  await pressEscape();
  t.press('C-b', 'q');
  await t.waitFor((scr) => /Quit baton/.test(scr) || t.exitCode !== undefined, 15_000);
  if (/Quit baton/.test(t.screenText())) t.type('y');
  await until(() => t.exitCode !== undefined, 'baton to quit', 30_000);
  await until(() => processesWithHome(menv.home).length === 0, 'every agent process gone', 10_000);
});

s.run();
