// ONE isolated home for several real agent CLIs, for tests where one process (baton)
// hands one environment to every CLI it starts: a handoff ring runs claude, codex,
// gemini, qwen and opencode with the same env. Each named CLI's config files go into the
// same scratch HOME (cli-env.ts's setupCli) and the environment is the union of their
// variables; two CLIs wanting one variable set differently is an error, not a silent
// overwrite. cleanup() ends, by pid, every process left under the scratch dir or started
// with its HOME (a shell tool started in a cwd outside the dir still carries that HOME),
// then removes the dir.
// It must never touch the real home, install anything, or kill a process by name.
import { mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { allPids, endPids, environOf, processesUnder } from '../../src/proc/index.js';
import { CLI_BIN_DIR, requireBin, scratchHome, setupCli, type CliEnv, type CliName } from './cli-env.js';

export interface MultiCliEnvOptions {
  /** The fake LLM's base URL, e.g. http://127.0.0.1:PORT (no /v1). */
  fakeUrl: string;
  /** The CLIs that share the home; each must be installed in .cache/clis. */
  names: readonly CliName[];
  /** The project dir the CLIs run in (trusted in their configs). Default: a fresh `work` dir in the scratch dir. */
  cwd?: string;
  /** More dirs to trust (claude, codex), e.g. worktrees made later under a known path. */
  trust?: string[];
  /** Where the scratch dir is made (default: the OS temp dir). */
  root?: string;
  /**
   * PATH holds only the named CLIs (links in the scratch dir's bin/, in place of .cache/clis),
   * so to baton the others are not installed. Default: every CLI in .cache/clis is on PATH.
   */
  pathOnly?: boolean;
}

export interface MultiCliEnv {
  names: readonly CliName[];
  /** The scratch dir: home/, tmp/, work/ live in it; cleanup() removes it. */
  dir: string;
  home: string;
  cwd: string;
  /** One complete environment for every CLI (not merged with process.env again); PWD = cwd. */
  env: Record<string, string>;
  /** Absolute path of each named CLI's command in .cache/clis. */
  bins: Partial<Record<CliName, string>>;
  /** A CliEnv view of one named CLI in this shared home (for runCli); its cleanup is the shared one. */
  cli(name: CliName): CliEnv;
  /** Ends leftover processes by pid and removes the dir; safe to call more than once. */
  cleanup(): Promise<void>;
}

export function multiCliEnv(opts: MultiCliEnvOptions): MultiCliEnv {
  if (!opts.names.length) throw new Error('multiCliEnv: names is empty');
  const names = [...new Set(opts.names)];
  // Checked before anything is made, so a missing CLI leaves no scratch dir behind.
  const bins: Partial<Record<CliName, string>> = {};
  for (const name of names) bins[name] = requireBin(name);

  const { dir, home, cwd, env } = scratchHome('multi', opts);
  const owner: Record<string, CliName> = {};
  try {
    if (opts.pathOnly) {
      const only = join(dir, 'bin');
      mkdirSync(only, { mode: 0o700 });
      for (const name of names) symlinkSync(bins[name]!, join(only, name));
      env.PATH = [only, ...env.PATH!.split(':').filter((p) => p !== CLI_BIN_DIR)].join(':');
    }
    for (const name of names) {
      const own = setupCli(name, { home, cwd, fakeUrl: opts.fakeUrl, trust: opts.trust });
      for (const [k, v] of Object.entries(own)) {
        const prev = owner[k];
        if (prev && env[k] !== v) throw new Error(`multiCliEnv: ${prev} and ${name} both need ${k}, with different values`);
        env[k] = v;
        owner[k] ??= name;
      }
    }
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }

  let cleaning: Promise<void> | undefined;
  const cleanup = () =>
    (cleaning ??= (async () => {
      await endPids(() => [...new Set([...processesUnder(dir), ...processesWithHome(home)])]);
      rmSync(dir, { recursive: true, force: true });
    })());

  return {
    names,
    dir,
    home,
    cwd,
    env,
    bins,
    cli(name) {
      const bin = bins[name];
      if (!bin) throw new Error(`multiCliEnv: ${name} is not one of ${names.join(', ')}`);
      return { name, dir, home, cwd, env, bin, cleanup };
    },
    cleanup,
  };
}

/** Pids of processes (other than this one) whose environment has HOME=home. */
export function processesWithHome(home: string): number[] {
  const item = `HOME=${home}`;
  return (allPids() ?? []).filter((pid) => pid !== process.pid && environOf(pid)?.includes(item));
}
