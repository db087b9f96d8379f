// real CLIs: claude, codex, gemini, qwen, opencode
// Accounts (issue #14 item 1) with the real agent CLIs against the project's fake LLM:
//   - each of the five CLIs, run by `baton chat --account`, writes its state in that
//     account's directory under BATON_HOME and nowhere in the CLI's own places under HOME;
//   - two accounts of one agent (claude) run with separate config dirs: a turn under one
//     leaves the other's files as they were;
//   - a switch between them with `baton chat --account` is a handoff ("Switched to account
//     home of claude") with the brief reaching the model, and the conversation then
//     stays under the new account (its own session resumed, no handoff);
//   - a fork under another account is a replay (the fork point's session is the other
//     account's), and its first turn runs under the new account with the history;
//   - login status is read from what the CLI itself stores: `codex login --with-api-key`,
//     run by `baton accounts login` with the key on standard input, makes `baton accounts
//     list` say logged in for that account only.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn } from 'node:child_process';
import { cpSync, existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { bodyContains } from '../fake-llm/server.js';
import { BatonInEnv } from '../helpers/baton-in-env.js';
import { builtBaton } from '../helpers/built-baton.js';

const AGENTS = ['claude', 'codex', 'gemini', 'qwen', 'opencode'] as const;
const s = suite('accounts with real CLIs');
const home = new BatonInEnv(s, AGENTS, '240');
const { baton, chat } = home;

/** Every file under `dir` with its mtime and size, relative to dir. */
function files(dir: string, out = new Map<string, string>(), base = dir): Map<string, string> {
  let names: string[] = [];
  try {
    names = readdirSync(dir);
  } catch {
    return out;
  }
  for (const n of names) {
    const p = join(dir, n);
    const st = statSync(p, { throwIfNoEntry: false });
    if (!st) continue;
    if (st.isDirectory()) files(p, out, base);
    else out.set(relative(base, p), `${st.mtimeMs}:${st.size}`);
  }
  return out;
}

const accountDir = (agent: string, name: string) => join(home.env().BATON_HOME!, 'accounts', agent, name);

async function add(agent: string, name: string): Promise<string> {
  const r = await baton(['accounts', 'add', agent, name]);
  assert.is(r.code, 0, r.err);
  return accountDir(agent, name);
}

/**
 * What a user does once in a new account so the CLI talks to the fake LLM: the config the
 * test home holds for the CLI's own configuration, copied in (claude and opencode take it
 * from the environment).
 */
function configure(agent: (typeof AGENTS)[number], dir: string): void {
  const h = home.menv.home;
  if (agent === 'codex') cpSync(join(h, '.codex/config.toml'), join(dir, 'config.toml'));
  if (agent === 'gemini') cpSync(join(h, '.gemini/settings.json'), join(dir, '.gemini/settings.json'));
  if (agent === 'qwen') cpSync(join(h, '.qwen/settings.json'), join(dir, 'settings.json'));
}

// Where each CLI keeps its sessions in its own configuration (under HOME, as the test sets it up).
const OWN_PLACES: Record<(typeof AGENTS)[number], string> = {
  claude: '.claude',
  codex: '.codex/sessions',
  gemini: '.gemini/tmp',
  qwen: '.qwen/projects',
  opencode: '.local/share/opencode',
};

s("each CLI under an account writes in the account's directory, never in its own places under HOME", async () => {
  for (const agent of AGENTS) {
    const dir = await add(agent, 'iso');
    configure(agent, dir);
    const own = join(home.menv.home, OWN_PLACES[agent]);
    const before = files(own);
    const r = await chat(['--new', '--agent', agent, '--account', 'iso', `Isolated ${agent}: ISO-${agent.toUpperCase()}-1`]);
    assert.is(r.agent, agent);
    assert.ok(files(dir).size > 0, `${agent} wrote nothing in its account`);
    assert.equal(files(own), before, `${agent} wrote in its own configuration under HOME`);
    assert.is(statSync(dir).mode & 0o777, 0o700);
  }
});

s("two accounts of claude: each turn runs in its own config dir; the other account's files are untouched", async () => {
  const work = await add('claude', 'work');
  const personal = await add('claude', 'personal');
  const a = await chat(['--new', '--agent', 'claude', '--account', 'work', 'Work turn WORK-ONLY-3301.']);
  const workFiles = files(work);
  assert.ok(
    [...workFiles.keys()].some((f) => f.startsWith('projects/') && f.endsWith('.jsonl')),
    'the work session log is in the work account',
  );
  assert.equal(files(personal), new Map(), 'nothing in the personal account yet');
  const b = await chat(['--new', '--agent', 'claude', '--account', 'personal', 'Personal turn PERSONAL-ONLY-3302.']);
  assert.ok(
    [...files(personal).keys()].some((f) => f.startsWith('projects/')),
    'the personal session log is in the personal account',
  );
  assert.equal(files(work), workFiles, 'the work account is exactly as it was');
  assert.is.not(a.conversation, b.conversation);
  assert.not.ok(existsSync(join(home.menv.home, '.claude/projects')), "claude's own configuration was not used");
});

s('a switch to another account of claude is a handoff with the brief; the conversation then stays under it', async () => {
  await add('claude', 'work');
  await add('claude', 'home');
  const first = await chat(['--new', '--agent', 'claude', '--account', 'work', 'Remember ACCT-ORIGIN-4411 for later.']);
  const id = first.conversation;
  const before = home.fake.requests().length;
  const sw = (await chat(['--conversation', id, '--account', 'home', 'Home account now: ACCT-NEXT-5522.'])) as typeof first & { account: string };
  assert.ok(sw.handoff, 'a handoff');
  assert.equal([sw.handoff!.from, sw.handoff!.mode, sw.account], ['claude', 'fresh', 'home']);
  const req = home.fake
    .requests()
    .slice(before)
    .find((r) => r.kind === 'generate' && bodyContains(r, 'ACCT-NEXT-5522'));
  assert.ok(req, 'the message reached the model');
  assert.ok(bodyContains(req!, 'ACCT-ORIGIN-4411'), "the brief carried the work account's turn");
  const show = await baton(['transcript', 'show', id]);
  assert.match(show.out, /Switched to account home of claude/);
  // Under the home account from now on: no handoff, its own session resumed.
  const after = home.fake.requests().length;
  const next = await chat(['--conversation', id, 'Still home: ACCT-THIRD-6633.']);
  assert.is(next.handoff, null);
  const req3 = home.fake
    .requests()
    .slice(after)
    .find((r) => r.kind === 'generate' && bodyContains(r, 'ACCT-THIRD-6633'));
  const messages = (req3!.body as { messages: { role: string; content: unknown }[] }).messages;
  assert.ok(
    messages.slice(0, -1).some((m) => JSON.stringify(m.content).includes('ACCT-NEXT-5522')),
    "the home account's own session was resumed",
  );
  assert.ok(existsSync(accountDir('claude', 'home')) && files(accountDir('claude', 'home')).size > 0);
});

/** The built baton with `stdin` on its standard input; resolves with its exit code and output. */
function batonProcess(args: string[], stdin: string): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [builtBaton(), ...args], { cwd: home.menv.cwd, env: home.env(), stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    // A login that waits for a person (a browser sign-in) would hang the suite: end it, and fail.
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out, err });
    });
    child.stdin.end(stdin);
  });
}

s("login status is what the CLI stores: codex's own login, run by baton accounts login, logs in that account only", async () => {
  const dir = await add('codex', 'work');
  await add('codex', 'spare');
  const list0 = await baton(['accounts', 'list', 'codex']);
  assert.match(list0.out, /^codex +work +not logged in/m);
  const login = await batonProcess(['accounts', 'login', 'codex', 'work', '--', '--with-api-key'], 'sk-account-test-7788\n');
  assert.is(login.code, 0, login.err);
  assert.match(login.out, /codex work: logged in \(API key\)/);
  assert.ok(existsSync(join(dir, 'auth.json')), "codex wrote its login in the account's CODEX_HOME");
  assert.is(statSync(join(dir, 'auth.json')).mode & 0o777, 0o600);
  assert.not.ok(existsSync(join(home.menv.home, '.codex/auth.json')), "codex's own configuration is not logged in");
  const list = await baton(['accounts', 'list', 'codex']);
  assert.match(list.out, /^codex +work +logged in: API key$/m);
  assert.match(list.out, /^codex +spare +not logged in$/m);
  assert.match(list.out, /^codex +default +default +not logged in$/m);
  assert.not.match(list.out, /sk-account-test/);
});

s('a fork under another account of claude is a replay saying why; its first turn runs under that account with the history', async () => {
  await add('claude', 'work');
  const other = await add('claude', 'other');
  const first = await chat(['--new', '--agent', 'claude', '--account', 'work', 'Fork source FORK-SRC-7100.']);
  const last = Math.max(...first.entries.map((e) => e.seq));
  const f = await home.fork([first.conversation, '--at', String(last), '--account', 'other']);
  assert.is(f.mode, 'replay');
  assert.match(f.replayReason ?? '', /another account \(other\)/);
  assert.equal(files(other), new Map(), 'nothing ran under it yet');
  const before = home.fake.requests().length;
  const r = (await chat(['--conversation', f.id, 'Forked turn FORK-NEXT-7200.'])) as typeof first & { account: string };
  assert.is(r.account, 'other');
  const req = home.fake
    .requests()
    .slice(before)
    .find((q) => q.kind === 'generate' && bodyContains(q, 'FORK-NEXT-7200'));
  assert.ok(req && bodyContains(req, 'FORK-SRC-7100'), 'the replay carried the source turn');
  assert.ok(
    [...files(other).keys()].some((p) => p.startsWith('projects/')),
    'the fork ran in the other account',
  );
});

s.run();
