// What the real-CLI TUI e2e tests (test/real/tui-*.test.ts, server-clients) share: the fake
// LLM and the CLIs' env (startRealEnv), the built
// baton (dist/src/cli.js) started in a real PTY against a multiCliEnv (its own BATON_HOME,
// config dir and server socket dir inside the env's scratch dir), the work dir made a git
// repository as a user's project is, an Esc pressed alone, and reading back the messages baton
// recorded under a BATON_HOME, quitting baton, and ending all a suite started (endRealTui);
// a message sent from the compose bar and its turn awaited; opencode given a second model.
// It must never use the user's real home, config or server socket.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeLlm, type FakeLlm } from '../fake-llm/server.js';
import type { CliName } from './cli-env.js';
import { multiCliEnv, type MultiCliEnv, type MultiCliEnvOptions } from './multi-cli-env.js';
import { TestTerminal } from './term.js';
import { until, within } from './wait.js';
import { builtBaton, endServers, serverEnv } from './baton-tui.js';

/** Makes `dir` a git repository on branch main, with an empty first commit unless `commit` is false. */
export function gitInit(dir: string, { commit = true } = {}): void {
  execFileSync('git', ['init', '-q', '-b', 'main', dir]);
  if (commit) execFileSync('git', ['-C', dir, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '--allow-empty', '-m', 'init']);
}

/** The five agent CLIs whose TUIs the real e2e suites drive. */
export type TuiCli = Extract<CliName, 'claude' | 'codex' | 'gemini' | 'qwen' | 'opencode'>;
export const TUI_CLIS: readonly TuiCli[] = ['claude', 'codex', 'gemini', 'qwen', 'opencode'];
/** Each CLI's title in baton's picker and tab bar. */
export const TUI_TITLE: Record<TuiCli, string> = { claude: 'Claude Code', codex: 'Codex CLI', gemini: 'Gemini CLI', qwen: 'Qwen Code', opencode: 'opencode' };
/** What each CLI shows once its prompt takes input (the tab says idle before the CLI has drawn anything). */
export const TUI_READY: Record<TuiCli, RegExp> = {
  claude: /\? for shortcuts/,
  codex: /\? for shortcuts/,
  gemini: /Type your message/,
  qwen: /Type your message/,
  opencode: /ctrl\+p commands/,
};

/** Of `all`, the CLIs this run is about: `npm run test:real -- claude` sets BATON_TEST_CLIS (unset: all). */
export function selectedClis<C extends string>(all: readonly C[]): C[] {
  const only = process.env.BATON_TEST_CLIS?.split(',').filter(Boolean);
  return all.filter((c) => !only?.length || only.includes(c));
}

/**
 * The fake LLM and a multiCliEnv of `names` against it, its work dir made a git repository
 * (gitInit's options; false: left a plain dir); `more.pathOnly`: only `names` on PATH. What is
 * started is ended again if a step fails.
 */
export async function startRealEnv(
  names: readonly CliName[],
  git: { commit?: boolean } | false = {},
  more: Pick<MultiCliEnvOptions, 'pathOnly'> = {},
): Promise<{ fake: FakeLlm; menv: MultiCliEnv }> {
  const fake = await startFakeLlm();
  let menv: MultiCliEnv | undefined;
  try {
    menv = multiCliEnv({ fakeUrl: fake.url, names, ...more });
    if (git) gitInit(menv.cwd, git);
    return { fake, menv };
  } catch (err) {
    await menv?.cleanup();
    await fake.close();
    throw err;
  }
}

export interface RealBatonOptions {
  /** baton's state dir (default: baton-home in the env's scratch dir). */
  batonHome?: string;
  /** The dir whose run/ holds this baton's server socket (default: the env's scratch dir). */
  serverDir?: string;
  /** More variables, over the others. */
  env?: Record<string, string>;
}

/** The socket dir (XDG_RUNTIME_DIR) of the servers of a baton started with this serverDir: endServers takes it. */
export const serverRun = (serverDir: string): string => join(serverDir, 'run');

/** The environment a baton runs in against `menv`: the CLIs' variables, its own state, config and server socket dirs. */
export function realBatonEnv(menv: MultiCliEnv, opts: RealBatonOptions = {}): Record<string, string> {
  return {
    ...menv.env,
    ...serverEnv(opts.serverDir ?? menv.dir),
    BATON_HOME: opts.batonHome ?? join(menv.dir, 'baton-home'),
    XDG_CONFIG_HOME: join(menv.dir, 'config'),
    TERM: 'xterm-256color',
    LANG: 'C.UTF-8',
    ...opts.env,
  };
}

export interface StartRealBatonOptions extends RealBatonOptions {
  cols: number;
  rows: number;
  /** The dir baton opens and runs in (default: the env's work dir). */
  dir?: string;
}

/** The built baton, as a user runs it (npm test builds it first), in a PTY of its own, opening `dir`. */
export function startRealBaton(menv: MultiCliEnv, opts: StartRealBatonOptions): TestTerminal {
  const dir = opts.dir ?? menv.cwd;
  return new TestTerminal([process.execPath, builtBaton(), dir], {
    cols: opts.cols,
    rows: opts.rows,
    cwd: dir,
    env: realBatonEnv(menv, opts),
  });
}

/** Quits baton from its TUI (C-b q, answering yes if it asks), waits up to 30 s for it to exit, and ends its PTY. */
export async function quitBaton(t: TestTerminal): Promise<void> {
  t.press('C-b', 'q');
  await t.waitFor((scr) => /Quit baton/.test(scr) || t.exitCode !== undefined, 15_000).catch(() => undefined);
  if (/Quit baton/.test(t.screenText())) t.type('y');
  await within(t.exited, 30_000, undefined);
  await t.kill();
}

/**
 * Ends what a real TUI suite started, whatever of it was started: the batons' PTYs, their
 * servers (by pid, through each serverDir's socket dir: the tabs run in the server), the
 * env's leftover processes and dir, the fake LLM.
 */
export async function endRealTui(
  terms: readonly (TestTerminal | undefined)[],
  menv: MultiCliEnv | undefined,
  fake: FakeLlm | undefined,
  serverDirs: (menv: MultiCliEnv) => string[] = (m) => [m.dir],
): Promise<void> {
  for (const t of terms) await t?.kill();
  if (menv) for (const dir of serverDirs(menv)) await endServers(serverRun(dir));
  await menv?.cleanup();
  await fake?.close();
}

/**
 * Enter for text typed straight into a CLI's own input box, as a person presses it: once, and
 * again while the model has not been asked about `marker` 5 s later (at most `tries` times).
 * Codex takes an Enter that comes within ~120 ms of fast typing for a newline, and under load
 * the last typed bytes and the Enter reach it closer together than they were sent: the text
 * then sits in its input box, as it would for a person, who presses Enter again.
 */
export async function submitTyped(t: TestTerminal, fake: FakeLlm, marker: string, tries = 3): Promise<void> {
  for (let i = 1; i <= tries; i++) {
    t.press('Enter');
    const asked = await until(() => fake.requestsContaining(marker).length > 0, `the model asked about ${marker}`, 5000).then(
      () => true,
      () => false,
    );
    if (asked) return;
  }
}

/**
 * The last `n` lines of the server logs under `batonHome` (what the server did and every
 * status-line message it showed, "said: …"), for a failure's report: the screen a test prints
 * holds only the last message, and a CI run's output is all there is to go on.
 */
export function serverLogTail(batonHome: string, n = 25): string {
  const logs = join(batonHome, 'logs');
  if (!existsSync(logs)) return `(no server log under ${logs})`;
  return readdirSync(logs)
    .filter((f) => f.startsWith('server-'))
    .map((f) => `${f}:\n${readFileSync(join(logs, f), 'utf8').trimEnd().split('\n').slice(-n).join('\n')}`)
    .join('\n');
}

/** Every status-line message the servers under `batonHome` showed, oldest first (their logs' "said:" lines). */
export function serverSaid(batonHome: string): string[] {
  const logs = join(batonHome, 'logs');
  if (!existsSync(logs)) return [];
  return readdirSync(logs)
    .filter((f) => f.startsWith('server-'))
    .flatMap((f) => readFileSync(join(logs, f), 'utf8').split('\n'))
    .flatMap((l) => {
      const at = l.indexOf('said: ');
      return at >= 0 ? [l.slice(at + 6)] : [];
    });
}

/** Esc alone: blessed reads an Esc followed at once by another key as Alt+key, as terminals do. */
export async function pressEscape(t: TestTerminal): Promise<void> {
  t.press('Escape');
  await new Promise((r) => setTimeout(r, 400));
}

/** A transcript entry as a test reads it, with the conversation it is in. */
export interface RecordedEntry {
  conversation: string;
  kind?: string;
  text?: string;
  author?: { type: string; name?: string; device?: string };
}

/** Every entry of every conversation recorded under `batonHome`, per conversation in order (none yet: []). */
export function recordedEntries(batonHome: string): RecordedEntry[] {
  const dir = join(batonHome, 'conversations');
  if (!existsSync(dir)) return [];
  const out: RecordedEntry[] = [];
  for (const id of readdirSync(dir)) {
    const file = join(dir, id, 'transcript.jsonl');
    if (!existsSync(file)) continue;
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (!line.trim()) continue;
      out.push({ ...(JSON.parse(line) as Omit<RecordedEntry, 'conversation'>), conversation: id });
    }
  }
  return out;
}

/** The user messages of every conversation recorded under `batonHome`. */
export function recordedUserMessages(batonHome: string): string[] {
  return recordedEntries(batonHome)
    .filter((e) => e.kind === 'user_message')
    .map((e) => e.text ?? '');
}

/**
 * Sends `text` from the compose bar (C-b m, typed, Enter) and waits until the fake LLM was
 * asked about it; on a timeout the error carries the screen, which says where it stuck.
 */
export async function composeSend(t: TestTerminal, fake: FakeLlm, text: string, timeoutMs = 180_000): Promise<void> {
  t.press('C-b', 'm');
  await t.waitFor(/›/, 10_000, 'the compose bar');
  t.type(text);
  await t.waitFor((scr) => scr.includes(`› ${text}`), 10_000, 'the draft');
  t.press('Enter');
  await until(() => fake.requestsContaining(text).length > 0, `the model asked about ${text}`, timeoutMs).catch((err: Error) => {
    throw new Error(`${err.message}; the screen:\n${t.screenText()}`);
  });
}

/**
 * Waits until the turn on `text` is recorded as ended under `batonHome`: until then the tab
 * counts as working, and a switch is refused.
 */
export function turnRecordedEnded(batonHome: string, text: string, timeoutMs = 120_000): Promise<void> {
  return until(
    () => {
      const rows = recordedEntries(batonHome);
      const at = rows.findIndex((e) => e.kind === 'user_message' && e.text === text);
      return at >= 0 && rows.slice(at).some((e) => e.kind === 'turn_end');
    },
    `the turn on ${text} recorded as ended`,
    timeoutMs,
  );
}

/** A whole turn from the compose bar: `text` sent (composeSend), and its turn recorded as ended. */
export async function composeTurn(t: TestTerminal, fake: FakeLlm, batonHome: string, text: string, timeoutMs = 180_000): Promise<void> {
  await composeSend(t, fake, text, timeoutMs);
  await turnRecordedEnded(batonHome, text, timeoutMs);
}

/** opencode's config (in `env`) given a second model of the fake provider; the first is the one it runs. */
export function secondOpencodeModel(env: Record<string, string>): void {
  const config = JSON.parse(env.OPENCODE_CONFIG_CONTENT!) as { provider: { fake: { models: Record<string, unknown> } } };
  config.provider.fake.models['fake-model-2'] = { name: 'Fake Model 2' };
  env.OPENCODE_CONFIG_CONTENT = JSON.stringify(config);
}
