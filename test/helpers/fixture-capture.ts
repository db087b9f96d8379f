// How the log fixtures in test/fixtures/<cli>/ are captured from the pinned real CLIs against
// the fake LLM, shared by each folder's capture.ts (run by hand when a pinned version changes:
// it writes the files) and test/real/fixtures-current.test.ts (which captures afresh and
// compares): headless turns through the driver, a TUI session the way baton drives one (no
// prompt at launch, the first message pasted once the screen reads idle), and running a
// capture into a folder.
// It must never write into test/fixtures except from captureMain, run by hand.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DriverDefinition, HarnessDriver, HeadlessResult, TranscriptEvent } from '../../src/plugins/api.js';
import { findExecutable } from '../../src/plugins/find-executable.js';
import { normalizeDriver } from '../../src/plugins/normalize-driver.js';
import { startFakeLlm, type FakeLlm } from '../fake-llm/server.js';
import { cliEnv, type CliEnv, type CliName } from './cli-env.js';
import { pasteMessage } from './real-driver-live.js';
import { TestTerminal } from './term.js';
import { until } from './wait.js';

/** A capture: given a fresh home and the fake LLM, each fixture file's new content by name. */
export type Capture = (env: CliEnv, fake: FakeLlm) => Promise<Record<string, string>>;

/** Runs a capture in a fresh home against a fresh fake LLM and writes its files into `dir`. */
export async function captureMain(cli: CliName, capture: Capture, dir: string): Promise<void> {
  const fake = await startFakeLlm();
  const env = cliEnv(cli, { fakeUrl: fake.url });
  try {
    const files = await capture(env, fake);
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    console.log(`captured ${Object.keys(files).join(', ')} in ${dir}`);
  } finally {
    await env.cleanup();
    await fake.close();
  }
}

/** Whether this module is the script node was started with (capture.ts run by hand). */
export const isMain = (url: string) => process.argv[1] !== undefined && new URL(url).pathname === process.argv[1];

/** The driver as baton uses it. */
export const asBaton = (definition: DriverDefinition): HarnessDriver => normalizeDriver(definition);

/** A headless turn through the driver in the home's work dir; a failed turn (a scripted model error) is returned, not thrown. */
export async function headless(
  driver: HarnessDriver,
  env: CliEnv,
  prompt: string,
  opts: { yes?: boolean; resume?: string } = {},
): Promise<HeadlessResult | Error> {
  try {
    return await driver.headless!({ cwd: env.cwd, env: env.env, prompt, yes: opts.yes ?? false, resume: opts.resume, timeoutMs: 300_000, onEvent: () => {} });
  } catch (err) {
    return err as Error;
  }
}

/** The session a turn ran in (it must have run). */
export function sessionOf(r: HeadlessResult | Error): string {
  if (r instanceof Error) throw r;
  if (!r.agentSession) throw new Error('the turn reported no session');
  return r.agentSession;
}

/** What a TUI session gives its steps: the terminal, the driver's ingest events, and how to read its screen. */
export interface TuiRun {
  tui: TestTerminal;
  events: TranscriptEvent[];
  turnEnds(): number;
  /** Waits until the driver reads `status` on the screen. */
  screen(status: 'idle' | 'working' | 'approval', ms?: number): Promise<void>;
  /** As baton sends a message: once the screen reads idle, one paste, the screen settled, then Enter. */
  send(text: string, readyMs?: number): Promise<void>;
}

/**
 * The CLI's TUI started from the driver's launch() (no prompt: baton pastes the first
 * message), in a 100x30 terminal, the driver's ingest following it; runs `steps`, ends both,
 * and resolves with the session the ingest followed.
 */
export async function tuiSession(driver: HarnessDriver, env: CliEnv, steps: (run: TuiRun) => Promise<void>): Promise<string> {
  const events: TranscriptEvent[] = [];
  const since = new Date();
  const launch = await driver.launch({ cwd: env.cwd, env: env.env });
  const runEnv = { ...env.env, ...launch.env };
  const tui = new TestTerminal([findExecutable(launch.command, runEnv)!, ...launch.args], { env: runEnv, cwd: launch.cwd, cols: 100, rows: 30 });
  // Bound as baton binds a tab: the session the launch fixed, else the TUI's own process
  // group (an ingest bound to neither follows nothing).
  const ing = await driver.ingest!({
    cwd: env.cwd,
    env: env.env,
    since,
    ...(launch.session ? { agentSession: launch.session } : {}),
    processGroup: () => (tui.exitCode === undefined ? tui.pid : undefined),
    onEvent: (e) => events.push(e),
  }).catch(async (err: unknown) => {
    await tui.kill();
    throw err;
  });
  const screen = (status: 'idle' | 'working' | 'approval', ms = 60_000) =>
    tui.waitFor((_, t) => driver.statusFromScreen!(t.rows()) === status, ms, `${driver.name} ${status} on screen`).then(() => {});
  try {
    await steps({
      tui,
      events,
      turnEnds: () => events.filter((e) => e.type === 'turn_end').length,
      screen,
      send: (text, readyMs = 120_000) => pasteMessage(driver, tui, text, readyMs, events),
    });
  } finally {
    await tui.kill();
    await ing.dispose();
  }
  const session = ing.agentSession ?? (events.find((e) => e.type === 'session') as { agentSession?: string } | undefined)?.agentSession;
  if (!session) throw new Error(`${driver.name}'s ingest never learned the TUI's session`);
  return session;
}

/**
 * Answers the approval dialog on screen with Enter, as a user would, and waits for turn n to
 * end in the log (a TUI writes its final reply there a moment after drawing it). A dialog can
 * be drawn a moment before it takes keys (qwen's lost the Enter once in four fresh-clone runs):
 * while it still shows 5 s later, Enter again.
 */
async function approve(run: TuiRun, driver: HarnessDriver, n: number): Promise<void> {
  run.tui.press('Enter');
  for (let i = 0; i < 3 && run.turnEnds() < n; i++) {
    const ended = await until(() => run.turnEnds() >= n, `turn ${n} of the TUI in its log`, 5000).then(
      () => true,
      () => false,
    );
    if (ended) return;
    if (driver.statusFromScreen!(run.tui.rows()) === 'approval') run.tui.press('Enter');
  }
  await turnEnded(run, n);
}

/** Waits for the n-th turn end in a TUI run. */
export const turnEnded = (run: TuiRun, n: number, ms = 120_000) => until(() => run.turnEnds() >= n, `turn ${n} of the TUI in its log`, ms);

/**
 * The capture of a CLI that keeps one JSONL log per session (claude, qwen): a headless session
 * of three turns (a reply, tools allowed, a tool denied) and a TUI session of two (a reply, a
 * shell call approved on its screen), each log as the CLI wrote it.
 */
export function sessionLogCapture(driver: HarnessDriver): Capture {
  return async (env) => {
    const log = async (session: string) => readFileSync((await driver.sessionLogPath!({ session, cwd: env.cwd, env: env.env }))!, 'utf8');
    const session = sessionOf(await headless(driver, env, 'hello FIXTURE-TOKEN-1'));
    sessionOf(
      await headless(
        driver,
        env,
        '[[FAKE_SHELL: echo SHELL-OK > from-shell.txt]] [[FAKE_WRITE: from-write.txt :: WRITE-OK]] [[FAKE_SHELL: ls /nonexistent-fixture-dir]]',
        {
          yes: true,
          resume: session,
        },
      ),
    );
    sessionOf(await headless(driver, env, '[[FAKE_SHELL: echo DENIED > denied.txt]]', { resume: session }));
    const tui = await tuiSession(driver, env, async (run) => {
      await run.send('hello TUI-FIXTURE-TOKEN');
      await turnEnded(run, 1);
      await run.send('[[FAKE_SHELL: echo TUI-SHELL-OK > tui-shell.txt]]');
      await run.screen('approval');
      await approve(run, driver, 2);
    });
    return { 'headless-session.jsonl': await log(session), 'tui-session.jsonl': await log(tui) };
  };
}
