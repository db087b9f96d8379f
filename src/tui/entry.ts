// runTui: what `baton` / `baton open [DIR]` calls. Loads the key configuration (a bad
// user file is a BatonError naming it, raised before the screen is taken), builds the
// app on the process's terminal, and resolves with the exit code once the user quits.
// It must never leave the terminal in raw mode or a program running behind it.

import { badInput } from '../errors.js';
import { App, type AppOptions } from './app.js';
import { loadKeyConfig, tmuxPrefixNote } from './keys.js';
import { scrollbackFromEnv } from './scrollback.js';
import { shellChoice } from './shell-choice.js';
import type { PickerChoice } from './picker.js';
import type { TabLaunch } from './tab.js';

export interface RunTuiOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  input?: NodeJS.ReadStream;
  output?: NodeJS.WriteStream;
  /** Extra picker entries (agents); the plain shell is always added last. */
  choices?: () => PickerChoice<TabLaunch>[] | Promise<PickerChoice<TabLaunch>[]>;
  /** Handlers replacing built-in commands (switch-agent, compose, transcript, ...). */
  commands?: AppOptions['commands'];
  /** Called with the app once it is on screen (the conversation layer wires itself here). */
  onReady?: (app: App) => void | Promise<void>;
  /**
   * The terminal went away (SIGHUP): called after every tab's program was ended, to flush
   * state. The process then ends itself with SIGKILL, because Node's own exit aborts when it
   * cannot restore a terminal that no longer exists.
   */
  onHangup?: () => Promise<void> | void;
  /**
   * Whether this TUI owns the process's signals (SIGTERM quits, SIGHUP ends everything):
   * true for a TUI on the user's terminal; false for a view a server hosts, whose signals are
   * the server's.
   */
  signals?: boolean;
  /** Called with the app before anything is drawn (a server keeps it to redraw on attach). */
  onApp?: (app: App) => void;
  /** Each status-line message as it is shown (AppOptions.said). */
  said?: (text: string) => void;
}

/** The picker's permanent entry: the user's $SHELL (else /bin/sh) in the directory. */
export { scrollbackFromEnv } from './scrollback.js';

export async function runTui(opts: RunTuiOptions): Promise<number> {
  const input = opts.input ?? process.stdin;
  const output = opts.output ?? process.stdout;
  const signals = opts.signals !== false;
  if (!input.isTTY || !output.isTTY) {
    throw badInput('baton needs a terminal', 'Run it in an interactive terminal (not through a pipe).');
  }
  const keys = loadKeyConfig({ env: opts.env });
  const scrollback = scrollbackFromEnv(opts.env);
  return new Promise<number>((resolve) => {
    const onSignal = () => void app.quit();
    let hungUp = false;
    const onHangup = () => {
      hungUp = true;
      void (async () => {
        await app.quit();
        await opts.onHangup?.();
        process.kill(process.pid, 'SIGKILL');
      })();
    };
    const app: App = new App({
      keys,
      input,
      output,
      env: opts.env,
      scrollback,
      commands: opts.commands,
      ...(opts.said ? { said: opts.said } : {}),
      choices: async () => [...((await opts.choices?.()) ?? []), shellChoice(opts.cwd, opts.env)],
      onQuit: () => {
        if (signals) {
          process.off('SIGTERM', onSignal);
          process.off('SIGHUP', onHangup);
        }
        // After a hangup the process ends itself (see onHangup); returning would let the caller exit normally and abort.
        if (!hungUp) resolve(0);
      },
    });
    if (signals) {
      process.on('SIGTERM', onSignal);
      process.on('SIGHUP', onHangup);
    }
    opts.onApp?.(app);
    // Inside tmux, C-b reaches tmux first: said once at start-up (the help says it in full).
    const tmux = tmuxPrefixNote(keys, opts.env);
    if (tmux) app.showMessage(tmux.short, 30_000);
    // The caller may restore earlier tabs first; with none open, offer a new one.
    void Promise.resolve(opts.onReady?.(app)).then(
      () => {
        if (app.tabs.length === 0) void app.run('new-tab').catch((e: unknown) => app.showFailure(e));
      },
      (e: unknown) => app.showFailure(e),
    );
  });
}
