// One agent CLI's driver under test with the real CLI: a fake LLM and an isolated home
// (cli-env.ts) made before the suite and ended after it, plus what every real driver suite
// uses: a unique token, the fake's requests since a point, a headless turn that records its
// wall-clock time, the BatonError a promise must reject with, the processes left under the
// home, the file watchers open, a follow (ingest) that collects events, a launched TUI in a
// PTY. The shared test shapes over it are in real-driver-tests.ts and real-driver-live.ts.
// It must never kill a process by name, nor time an assertion (timings are only printed).
import { suite, type Test } from 'uvu';
import { randomBytes } from 'node:crypto';
import {
  ARGV_PROMPT_LIMIT,
  type DriverDefinition,
  type HarnessDriver,
  type HeadlessResult,
  type HeadlessTurn,
  type IngestOptions,
  type Ingestor,
  type LaunchSpec,
  type TranscriptEvent,
} from '../../src/plugins/api.js';
import { findExecutable } from '../../src/plugins/find-executable.js';
import { normalizeDriver } from '../../src/plugins/normalize-driver.js';
import { bodyContains, startFakeLlm, type FakeLlm, type LoggedRequest } from '../fake-llm/server.js';
import { processesUnder } from '../../src/proc/index.js';
import { cliEnv, type CliEnv, type CliName } from './cli-env.js';
import { TestTerminal } from './term.js';

export type Of<T extends TranscriptEvent['type']> = Extract<TranscriptEvent, { type: T }>;

export interface TurnOutcome {
  result: HeadlessResult;
  events: TranscriptEvent[];
}

export const token = (label: string) => `TOK-${label}-${randomBytes(4).toString('hex')}`;
/** The agent's reply: every agent_text joined. */
export const textOf = (events: TranscriptEvent[]) => events.map((e) => (e.type === 'agent_text' ? e.text : '')).join('');
export const typesOf = (events: TranscriptEvent[]) => events.map((e) => e.type);
/** fs.watch handles open in this process (what an ingest's watcher holds). */
export const watchers = () => process.getActiveResourcesInfo().filter((r) => r === 'FSEventWrap').length;
/** A first message past the argv limit, starting with tok. */
export const bigBrief = (tok: string) => `${tok}\n${'a long brief line with words\n'.repeat(Math.ceil((ARGV_PROMPT_LIMIT + 5000) / 29))}END`;

/** The seq of the last request the fake logged (0 for none). */
export const lastSeqOf = (fake: FakeLlm) => fake.requests().at(-1)?.seq ?? 0;

/** Model requests logged after seq `after` that carry every one of texts. */
export const requestsCarrying = (fake: FakeLlm, after: number, ...texts: string[]): LoggedRequest[] =>
  fake.requests().filter((r) => r.seq > after && r.kind === 'generate' && texts.every((t) => bodyContains(r, t)));

export { rejects } from './baton-error.js';

export interface RealDriverOptions {
  /** A headless turn's limit unless the test sets its own. */
  turnMs: number;
  /** The pinned version in .cache/clis. */
  version: string;
  /** The install command detect and a missing CLI give. */
  installHint: string;
  /** Text the login hint names. */
  loginHint: string;
}

/** Where the suite's tests keep what later tests build on. */
export interface Ran {
  token: string;
  session: string;
}

export class RealDriver {
  readonly suite: Test;
  /** The driver as baton uses it: its definition through the registry's normalizeDriver(). */
  readonly driver: HarnessDriver;
  readonly timings: string[] = [];
  /** The first headless turn (for the resume tests). */
  first?: Ran;
  /** The turn the live-ingest test followed (for readSession). */
  ingested?: Ran;
  #fake?: FakeLlm;
  #env?: CliEnv;

  constructor(
    readonly name: CliName,
    definition: DriverDefinition,
    readonly opts: RealDriverOptions,
  ) {
    this.driver = normalizeDriver(definition);
    this.suite = suite(`${definition.name} driver (real CLI)`);
    this.suite.before(async () => {
      this.#fake = await startFakeLlm();
      this.#env = cliEnv(name, { fakeUrl: this.#fake.url });
    });
    this.suite.after(async () => {
      await this.#env?.cleanup();
      await this.#fake?.close();
    });
  }

  get fake(): FakeLlm {
    if (!this.#fake) throw new Error('the suite has not started');
    return this.#fake;
  }

  get env(): CliEnv {
    if (!this.#env) throw new Error('the suite has not started');
    return this.#env;
  }

  lastSeq(): number {
    return lastSeqOf(this.fake);
  }

  carrying(after: number, ...texts: string[]): LoggedRequest[] {
    return requestsCarrying(this.fake, after, ...texts);
  }

  /** Pids still running from inside the home: none once a run is over. */
  left(): number[] {
    return processesUnder(this.env.dir);
  }

  /** Records how long something took since started, for the timings printed at exit. */
  timed(label: string, started: number): void {
    this.timings.push(`${this.driver.name} ${label}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }

  /** A headless turn in the home's work dir, without --yes unless extra says so. */
  async turn(label: string, prompt: string, extra: Partial<HeadlessTurn> = {}): Promise<TurnOutcome> {
    const events: TranscriptEvent[] = [];
    const started = Date.now();
    try {
      const env = this.env;
      // extra.onEvent watches the events as they come; they are collected all the same.
      const result = await this.driver.headless!({
        cwd: env.cwd,
        env: env.env,
        prompt,
        yes: false,
        timeoutMs: this.opts.turnMs,
        ...extra,
        onEvent: (e) => {
          events.push(e);
          extra.onEvent?.(e);
        },
      });
      return { result, events };
    } finally {
      this.timed(label, started);
    }
  }

  /**
   * A headless turn whose session's ingest starts as soon as the turn names its session (a
   * CLI's output says it before the model answers), with `since` from before the turn: the
   * turn, and the ingest following it with its events.
   */
  async followedTurn(
    label: string,
    prompt: string,
    extra: Partial<HeadlessTurn> = {},
  ): Promise<{ turn: Promise<TurnOutcome>; ing: Ingestor; events: TranscriptEvent[] }> {
    const since = new Date();
    let named: ((id: string) => void) | undefined;
    const session = new Promise<string>((r) => (named = r));
    const turn = this.turn(label, prompt, {
      ...extra,
      onEvent: (e) => {
        if (e.type === 'session') named!(e.agentSession);
        extra.onEvent?.(e);
      },
    });
    const id = await Promise.race([session, turn.then(() => session)]);
    const { ing, events } = await this.follow({ agentSession: id, since });
    return { turn, ing, events };
  }

  /** An ingest from now in the work dir, its events collected. */
  async follow(extra: Partial<IngestOptions> = {}): Promise<{ ing: Ingestor; events: TranscriptEvent[] }> {
    const events: TranscriptEvent[] = [];
    const ing = await this.driver.ingest!({ cwd: this.env.cwd, env: this.env.env, since: new Date(), onEvent: (e) => events.push(e), ...extra });
    return { ing, events };
  }

  /** The launched TUI for real, in a 120x40 PTY of its own (ended by the caller's kill()). */
  tui(spec: LaunchSpec): TestTerminal {
    const env = { ...this.env.env, ...spec.env };
    return new TestTerminal([findExecutable(spec.command, env)!, ...spec.args], { env, cwd: spec.cwd, cols: 120, rows: 40 });
  }

  /** Runs body with the launched TUI and an ingest following it from now; ends both after it, whatever happens. */
  async withTui(
    launch: LaunchSpec,
    body: (tui: TestTerminal, events: TranscriptEvent[]) => Promise<void>,
    follow: Partial<IngestOptions> = {},
  ): Promise<{ ing: Ingestor; events: TranscriptEvent[] }> {
    const since = new Date();
    const tui = this.tui(launch);
    let followed: { ing: Ingestor; events: TranscriptEvent[] } | undefined;
    try {
      // Bound as baton binds a tab: the session the launch fixed, else the TUI's own process group.
      followed = await this.follow({
        since,
        ...(launch.session ? { agentSession: launch.session } : {}),
        processGroup: () => (tui.exitCode === undefined ? tui.pid : undefined),
        ...follow,
      });
      await body(tui, followed.events);
    } finally {
      await tui.kill();
      await followed?.ing.dispose();
    }
    return followed;
  }

  /** Runs the suite; the timings are printed at exit (shown with BATON_TEST_VERBOSE=1 or on failure; speed checks belong in bench/). */
  run(): void {
    this.suite.run();
    process.on('exit', () => console.log(`\n${this.driver.name} driver timings (wall clock, fake LLM answers at once):\n  ${this.timings.join('\n  ')}`));
  }
}

/** name: the CLI (its isolated home and executable); driver: the definition of the driver under test. */
export function realDriverSuite(name: CliName, driver: DriverDefinition, opts: RealDriverOptions): RealDriver {
  return new RealDriver(name, driver, opts);
}
