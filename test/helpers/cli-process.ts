// The built baton CLI (dist/src/cli.js) run to its end as a process of its own, in its own
// process group, for integration tests whose drop-in drivers may hang, spin or exit: its
// output is collected, and one still running when the test stops waiting fails the test
// and is killed with its whole group, so nothing outlives the test.
// It must never pass a shell string: argv only.
import { spawn, type ChildProcess } from 'node:child_process';
import { signalGroup } from '../../src/proc/index.js';
import { builtBaton } from './built-baton.js';
import { until } from './wait.js';

const CLI = builtBaton();

export interface CliProcessRun {
  code: number | null;
  out: string;
  err: string;
}

export interface CliProcess {
  child: ChildProcess;
  /** Waits for the exit; a baton still running after `ms` fails the test (and is killed). */
  exit(ms?: number): Promise<CliProcessRun>;
}

/** Starts `baton ...args` in `cwd` with exactly `env`. */
export function startCliProcess(args: string[], cwd: string, env: NodeJS.ProcessEnv): CliProcess {
  const child = spawn(process.execPath, [CLI, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const r: CliProcessRun = { code: null, out: '', err: '' };
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (r.out += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (r.err += d));
  let gone = false;
  const closed = new Promise<void>((resolve) =>
    child.once('close', (code) => {
      r.code = code;
      gone = true;
      resolve();
    }),
  );
  return {
    child,
    async exit(ms = 60_000) {
      try {
        await until(() => gone, `baton ${args.join(' ')} to exit`, ms).catch((err: Error) => {
          throw new Error(`${err.message}; its stderr: ${JSON.stringify(r.err)}`);
        });
      } finally {
        signalGroup(child.pid!, 'SIGKILL');
      }
      await closed;
      return r;
    },
  };
}
