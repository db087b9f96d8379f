// The full-screen baton: runTui with conversations plugged in (agent tabs, compose bar,
// transcript view, in-place switch, restore). What `baton` and `baton open DIR` call.

import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { badInput } from '../errors.js';
import { loadRegistry } from '../plugins/registry.js';
import type { UserAuthor } from '../transcript/types.js';
import { createGitFactsProvider, pruneAtStartup, resolveHome } from '../conversation/index.js';
import { ConversationTabs } from './conversation-tabs.js';
import { worktreesStayNote } from './fork-dialog.js';
import type { App } from './app.js';
import { openApprovals } from './approvals.js';
import { runTui } from './entry.js';
import { loadKeyConfig } from './keys.js';
import type { Notification, NotifySettings } from './desktop-notify.js';
import { readNotifySettings } from './notify-settings.js';
import { chooseTabMode } from './mode-dialog.js';

export interface RunBatonOptions {
  dir: string;
  env: NodeJS.ProcessEnv;
  pluginDirs?: string[];
  /** Warnings to show before the screen is taken. */
  warn?: (text: string) => void;
  /** A server-hosted view: its streams, and what it calls instead of taking the process's signals. */
  hosted?: {
    input: NodeJS.ReadStream;
    output: NodeJS.WriteStream;
    /** Who is typing (the attached client whose keys the view handles), the author of what the compose bar sends. */
    author?(): UserAuthor | undefined;
    /** C-b d: the attached client leaves; everything keeps running. */
    detach(): void;
    /** The app and its conversations, once made. */
    onStart(app: App, tabs: ConversationTabs): void;
    /** What to tell the user once the view quit (the worktrees that stay), on their terminal. */
    afterQuit?(note: string): void;
    /** A tab needs the user: tell every attached client's terminal, as `settings` say. */
    needsYou?(n: Notification, settings: NotifySettings): void;
    /** Each status-line message as the view shows it (kept in the server's log: what the user was told, when). */
    said?(text: string): void;
  };
}

export async function runBaton(opts: RunBatonOptions): Promise<number> {
  const cwd = resolve(opts.dir);
  if (!existsSync(cwd) || !statSync(cwd).isDirectory()) throw badInput(`${cwd} is not a directory`, 'give the directory to open baton in');
  const home = resolveHome(opts.env);
  const pruned = await pruneAtStartup(home, opts.env);
  for (const p of pruned?.pruned ?? []) opts.warn?.(`pruned conversation ${p.id} (untouched since ${p.updated.slice(0, 10)})`);
  const keys = loadKeyConfig({ env: opts.env });
  const registry = await loadRegistry({ env: opts.env, pluginDirs: opts.pluginDirs, watch: true });
  for (const p of registry.problems) opts.warn?.(`${p.path}: ${p.message}`);
  const author = opts.hosted?.author?.bind(opts.hosted);
  const notify = readNotifySettings(opts.env);
  for (const w of notify.warnings) opts.warn?.(w);
  const needsYou = opts.hosted?.needsYou?.bind(opts.hosted);
  const tabs = new ConversationTabs({
    cwd,
    env: opts.env,
    home,
    registry,
    git: createGitFactsProvider(),
    prefix: keys.prefix,
    notify: notify.settings,
    ...(author ? { author } : {}),
    ...(needsYou ? { tellOuter: (n: Notification) => needsYou(n, notify.settings) } : {}),
  });
  // (Ended with the registry, below.)
  registry.onChange((c) => {
    for (const p of c.problems) tabs.notify(`plugin problem: ${p.path}: ${p.message}`);
    if (c.added.length) tabs.notify(`agents added: ${c.added.join(', ')}`);
  });
  try {
    const hosted = opts.hosted;
    const code = await runTui({
      cwd,
      env: opts.env,
      ...(hosted
        ? {
            input: hosted.input,
            output: hosted.output,
            signals: false,
            onApp: (app: App) => hosted.onStart(app, tabs),
            ...(hosted.said ? { said: (m: string) => hosted.said!(m) } : {}),
          }
        : {}),
      commands: {
        ...(hosted ? { detach: () => hosted.detach() } : {}),
        'new-tab': () => tabs.newTab(),
        'switch-agent': () => tabs.switchAgent(),
        mode: (app) => chooseTabMode(app, registry, tabs.active),
        compose: () => tabs.focusCompose(),
        transcript: () => tabs.showTranscript(),
        'close-tab': () => tabs.closeTab(),
        quit: () => tabs.quit(),
        approvals: (app) => openApprovals(app),
      },
      onReady: async (app) => {
        tabs.attach(app);
        await tabs.offerRestore();
      },
      onHangup: () => tabs.dispose(),
    });
    // Said once the screen is given back, where the shell's scrollback keeps it: a quit
    // never removes a fork's worktree, nor asks to.
    const stay = worktreesStayNote(tabs.openWorktrees());
    if (stay) (hosted?.afterQuit ?? opts.warn)?.(stay.charAt(0).toLowerCase() + stay.slice(1));
    return code;
  } finally {
    try {
      await tabs.dispose();
    } finally {
      // Whatever closing the tabs ran into: the plugin watcher would keep the process alive.
      await registry.dispose();
    }
  }
}
