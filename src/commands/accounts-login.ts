// `baton accounts login AGENT NAME`: the CLI's own login, run in the user's terminal with
// the account's environment (its config dir through the CLI's own variable), so whatever
// the CLI stores about the login lands in that account. The CLI shares baton's terminal and
// process group (a login reads the keyboard, so it must stay in the foreground); Ctrl-C
// goes to the CLI, and baton waits for it rather than leaving it behind.
// It never passes a secret on a command line: a key goes through the CLI's own prompt or
// its standard input (`codex login --with-api-key` reads it there).

import { spawn } from 'node:child_process';
import { BatonError, EXIT } from '../errors.js';
import type { HarnessDriver, LaunchSpec } from '../plugins/api.js';

/** Runs `spec` (with `extra` arguments after its own) attached to this terminal; resolves with its exit code. */
export function runAttached(spec: LaunchSpec, env: NodeJS.ProcessEnv, extra: readonly string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const ignore = () => undefined;
    // The CLI handles Ctrl-C itself; baton outlives it to report how it ended.
    process.on('SIGINT', ignore);
    const done = () => process.off('SIGINT', ignore);
    const child = spawn(spec.command, [...spec.args, ...extra], { cwd: spec.cwd, env: { ...env, ...spec.env }, stdio: 'inherit' });
    child.on('error', (err) => {
      done();
      reject(err);
    });
    child.on('exit', (code, signal) => {
      done();
      resolve(code ?? (signal ? 128 : 1));
    });
  });
}

/** The driver's login for `account` run to its end; a login that fails is exit 4, a CLI that is not there exit 3. */
export async function login(driver: HarnessDriver, account: string | undefined, env: NodeJS.ProcessEnv, cwd: string, extra: readonly string[]): Promise<void> {
  if (!driver.login) {
    throw new BatonError(
      `${driver.title} (${driver.name}) has no login baton can run`,
      EXIT.badInput,
      `log in with ${driver.name}'s own command, then see baton accounts list`,
    );
  }
  const spec = driver.login({ env, cwd, ...(account ? { account } : {}) }) as LaunchSpec;
  let code: number;
  try {
    code = await runAttached({ ...spec, env: spec.env ?? {} }, env, extra);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new BatonError(`${driver.title} (${spec.command}) is not installed`, EXIT.agentNotInstalled, 'see baton agents');
    }
    throw err;
  }
  if (code !== 0)
    throw new BatonError(`${driver.title}'s login ended with exit code ${code}`, EXIT.agentFailed, "run it again, or see the CLI's own message above");
}
