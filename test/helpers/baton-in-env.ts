// baton's CLI run in this process (main() with a buffer io) in a multi-CLI home, for the
// real-CLI suites: a fresh fake LLM and one home for the named CLIs before each test of a
// suite (ended after it); baton's own home, config and worktrees dir live inside the
// scratch dir; `baton chat --json` and `baton fork --json` must exit 0 and are parsed.
// It must never use the user's own baton home or config.
import type { Test } from 'uvu';
import * as assert from 'uvu/assert';
import { join } from 'node:path';
import { main } from '../../src/cli.js';
import { bufferIo } from '../../src/commands/io.js';
import { startFakeLlm, type FakeLlm } from '../fake-llm/server.js';
import type { CliName } from './cli-env.js';
import { multiCliEnv, type MultiCliEnv } from './multi-cli-env.js';

export interface ChatJson {
  conversation: string;
  agent: string;
  handoff: { from: string | null; mode: string } | null;
  entries: { kind: string; text?: string; seq: number; checkpoint?: string }[];
}

export interface ForkJson {
  id: string;
  mode: 'native' | 'replay';
  nativeSession?: { harness: string; agentSession: string };
  replayReason?: string;
  worktree?: { path: string; cwd: string };
}

/** Before each test of the suite a fresh fake LLM and one home for `names`; baton run in it. */
export class BatonInEnv {
  #fake?: FakeLlm;
  #menv?: MultiCliEnv;

  /** timeoutS: baton chat's --timeout. pathOnly: only `names` on PATH (multi-cli-env.ts). */
  constructor(
    s: Test,
    names: readonly CliName[],
    readonly timeoutS: string,
    opts: { pathOnly?: boolean } = {},
  ) {
    s.before.each(async () => {
      this.#fake = await startFakeLlm();
      this.#menv = multiCliEnv({ fakeUrl: this.#fake.url, names, ...(opts.pathOnly ? { pathOnly: true } : {}) });
    });
    s.after.each(async () => {
      await this.#menv?.cleanup();
      await this.#fake?.close();
    });
  }

  get fake(): FakeLlm {
    if (!this.#fake) throw new Error('no test is running');
    return this.#fake;
  }

  get menv(): MultiCliEnv {
    if (!this.#menv) throw new Error('no test is running');
    return this.#menv;
  }

  /** The environment baton runs with: the CLIs' one, and baton's dirs in the scratch dir. */
  env = (): Record<string, string> => {
    const m = this.menv;
    return { ...m.env, BATON_HOME: join(m.dir, 'baton-home'), XDG_CONFIG_HOME: join(m.dir, 'config'), BATON_WORKTREES_DIR: join(m.dir, 'worktrees') };
  };

  baton = async (args: string[]): Promise<{ code: number; out: string; err: string }> => {
    const io = bufferIo(this.env(), this.menv.cwd);
    const code = await main(args, io);
    return { code, out: io.stdout(), err: io.stderr() };
  };

  /** `baton chat --json --timeout <s>`. */
  chat = async (args: string[]): Promise<ChatJson> => (await this.#ok(['chat', '--json', '--timeout', this.timeoutS, ...args])) as ChatJson;

  /** `baton fork ... --json`. */
  fork = async (args: string[]): Promise<ForkJson> => (await this.#ok(['fork', ...args, '--json'])) as ForkJson;

  async #ok(args: string[]): Promise<unknown> {
    const r = await this.baton(args);
    assert.is(r.code, 0, `baton ${args.join(' ')}: ${r.err}`);
    return JSON.parse(r.out) as unknown;
  }
}
