// src/tui/conversation-tabs.ts with the real App, in this process: agent tabs opened from the
// new-tab picker (a drop-in agent whose CLI draws a prompt and waits), typed into, and
// closed, leave nothing behind: no timer (unref'd ones included: counted with async_hooks),
// no watcher, PTY or other handle, no process, and no listener on the process or on the
// terminal streams. And idle tabs run no timer at all: nothing is polled. A tab's notice (its
// start's outcome) is said on the status line once, not again at each later change of the tab;
// it belongs to its tab: off when another tab comes to the front, told when its tab comes to
// the front if it was said while the tab was behind, and never told twice.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createHook } from 'node:async_hooks';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { loadRegistry, type Registry } from '../../src/plugins/registry.js';
import { childrenOf } from '../../src/proc/index.js';
import { App } from '../../src/tui/app.js';
import { ConversationTabs } from '../../src/tui/conversation-tabs.js';
import { shellChoice } from '../../src/tui/shell-choice.js';
import { loadKeyConfig } from '../../src/tui/keys.js';
import { until } from '../helpers/wait.js';
import { createGitFactsProvider } from '../../src/worktree/git-facts.js';

// An agent CLI between turns: a prompt, then nothing until it is typed at (the terminal echoes).
// While the file IDLE_CLI_SLOW names exists, it takes a while to start.
const CLI = `import { existsSync } from 'node:fs';
const slow = existsSync(process.env.IDLE_CLI_SLOW);
setTimeout(() => process.stdout.write('idle-cli ready\\n> '), slow ? 20000 : 0);
process.stdin.resume();
`;

// Each run's log a file of its own (chokidar shares one watch among watchers of one path).
const dropIn = (cli: string) => `import { writeFileSync } from 'node:fs';
let runs = 0;
export default (kit) => ({
  name: 'idle',
  title: 'Idle CLI',
  families: [],
  capabilities: { resume: false, fork: false },
  async detect() { return { installed: true, installHint: 'written by test/integration/conversation-tabs.test.ts' }; },
  launch(opts) { return { command: process.execPath, args: [${JSON.stringify(cli)}], env: {}, cwd: opts.cwd }; },
  async ingest(opts) {
    const log = opts.env.IDLE_CLI_LOG + '.' + ++runs;
    writeFileSync(log, '');
    const tail = await kit.tailJsonl(log, { onRecord: (r) => opts.onEvent(r) });
    return { agentSession: undefined, skipped: 0, dispose: () => tail.dispose() };
  },
  statusFromScreen(lines) { return lines.some((l) => l.startsWith('> ')) ? 'idle' : undefined; },
});
`;

/**
 * Live async resources by type, unref'd timers included (which getActiveResourcesInfo leaves
 * out), and timer callbacks run. Enabled for the whole file, so resources made before a
 * test's window are known by type when they run in it (an interval ticks on one id).
 */
class Resources {
  private readonly types = new Map<number, string>();
  private readonly live = new Set<number>();
  private ran: string[] | undefined;
  // Short-lived by nature (a read, a promise, a callback): not things an owner holds. (A
  // FileHandle is let go by the garbage collector, not by its close().)
  private static readonly TRANSIENT =
    /^(PROMISE|TickObject|Microtask|FSREQCALLBACK|FSREQPROMISE|FILEHANDLECLOSEREQ|SHUTDOWNWRAP|WRITEWRAP|GETADDRINFOREQWRAP|RANDOMBYTESREQUEST|PBKDF2REQUEST|ZLIB|FILEHANDLE)$/;
  constructor() {
    createHook({
      init: (id, type) => {
        if (Resources.TRANSIENT.test(type)) return;
        this.types.set(id, type);
        this.live.add(id);
      },
      before: (id) => {
        const type = this.types.get(id);
        if (this.ran && (type === 'Timeout' || type === 'Immediate')) this.ran.push(type);
      },
      destroy: (id) => {
        this.live.delete(id);
        this.types.delete(id);
      },
    }).enable();
  }

  /** What is live now (to tell what is made after). */
  mark(): ReadonlySet<number> {
    return new Set(this.live);
  }

  /**
   * Made after `from` and before `to` (marks), and still live, counted by type: a Timeout that
   * fired or was cleared is gone; so is a closed handle.
   */
  leftBetween(from: ReadonlySet<number>, to: ReadonlySet<number>): Record<string, number> {
    const out: Record<string, number> = {};
    for (const id of this.live) {
      if (from.has(id) || !to.has(id)) continue;
      const type = this.types.get(id)!;
      out[type] = (out[type] ?? 0) + 1;
    }
    return Object.fromEntries(Object.entries(out).sort());
  }

  /** The timer callbacks (by type) run while `during` runs. */
  async timersRun(during: () => Promise<unknown>): Promise<string[]> {
    const ran: string[] = [];
    this.ran = ran;
    try {
      await during();
    } finally {
      this.ran = undefined;
    }
    return ran;
  }
}

const resources = new Resources();

/** Listeners on the process (signals, exit) and the terminal's streams, by event. */
function listeners(...emitters: NodeJS.EventEmitter[]): Record<string, number> {
  const out: Record<string, number> = {};
  emitters.forEach((e, i) => {
    for (const name of e.eventNames()) out[`${i}:${String(name)}`] = e.listenerCount(name);
  });
  return out;
}

interface World {
  home: string;
  app: App;
  tabs: ConversationTabs;
  registry: Registry;
  input: PassThrough;
  output: PassThrough;
}

let w: World | undefined;

/** `said`: each status-line message as it is shown (the app's own hook; a server logs them). */
async function world(said?: (text: string) => void): Promise<World> {
  const home = mkdtempSync(join(tmpdir(), 'baton-convtabs-'));
  const cli = join(home, 'idle-cli.mjs');
  writeFileSync(cli, CLI);
  const plugins = join(home, 'plugins');
  mkdirSync(plugins);
  writeFileSync(join(plugins, 'idle.mjs'), dropIn(cli));
  const log = join(home, 'cli-log.jsonl');
  const work = join(home, 'work');
  mkdirSync(work);
  const env = {
    PATH: process.env.PATH,
    HOME: home,
    BATON_HOME: join(home, 'baton'),
    XDG_CONFIG_HOME: join(home, 'config'),
    IDLE_CLI_LOG: log,
    IDLE_CLI_SLOW: join(home, 'slow'),
    SHELL: '/bin/sh',
    PS1: '$ ',
  };
  const registry = await loadRegistry({ env, builtinDir: false, pluginDirs: [plugins] });
  const keys = loadKeyConfig({ env });
  const tabs = new ConversationTabs({ cwd: work, env, home: join(home, 'baton'), registry, git: createGitFactsProvider(), prefix: keys.prefix });
  // The terminal the user sits at, in memory (blessed draws into it; keys are written to it).
  const input = new PassThrough();
  const output = Object.assign(new PassThrough(), { columns: 100, rows: 30 });
  output.resume();
  const app = new App({
    keys,
    input: input as unknown as NodeJS.ReadStream,
    output: output as unknown as NodeJS.WriteStream,
    env,
    choices: () => [],
    commands: { 'new-tab': () => tabs.newTab(), 'close-tab': () => tabs.closeTab() },
    ...(said ? { said } : {}),
  });
  tabs.attach(app);
  w = { home, app, tabs, registry, input, output };
  return w;
}

/** The new-tab picker's first entry (the agent), as the user picks it: Enter; then (unless told not to) waits for it to read idle. */
async function openAgentTab(x: World, waitIdle = true): Promise<void> {
  const before = x.app.tabs.length;
  const opening = x.app.run('new-tab');
  await until(() => x.app.router.mode === 'ui', 'the picker');
  x.input.write('\r');
  await opening;
  assert.is(x.app.tabs.length, before + 1, 'an agent tab opened');
  if (waitIdle) await until(() => x.tabs.active?.snapshot().status === 'idle', 'the agent reads idle');
}

const s = suite('conversation tabs: lifecycle');
s.after.each(async () => {
  if (!w) return;
  await w.app.quit();
  await w.tabs.dispose();
  await w.registry.dispose();
  rmSync(w.home, { recursive: true, force: true });
  w = undefined;
});

s('closing agent tabs leaves no timer, handle, process or listener behind', async () => {
  const x = await world();
  // A plain shell stays open throughout: what closing the agent tabs leaves is compared with it alone.
  x.app.openTab(shellChoice(join(x.home, 'work'), { SHELL: '/bin/sh' }).value);
  await until(() => x.app.activeTab!.pane.rowText(0).includes('$'), 'the shell prompt');
  // One agent tab opened and closed first: whatever the first one sets up for good (a module's
  // cache, the conversation store's directory) is not counted against the tabs.
  await openAgentTab(x);
  await x.tabs.closeTab();

  const res = resources;
  {
    await new Promise((r) => setTimeout(r, 300));
    const mark = res.mark();
    const baseListeners = listeners(process, x.input, x.output);
    const baseChildren = childrenOf(process.pid).length;

    for (let i = 0; i < 3; i++) await openAgentTab(x);
    assert.is(childrenOf(process.pid).length, baseChildren + 3, 'each agent tab runs its CLI');
    // Typed at (the terminal echoes): output arrives, reads of the screen are armed, and the
    // tabs are closed before they run.
    for (let i = 0; i < 3; i++) {
      x.app.activeTab!.pane.write('hello\r');
      await until(() => x.app.activeTab!.pane.rowText(1).includes('hello'), 'the echo');
      await x.tabs.closeTab();
    }
    // And one closed while its CLI is still starting (its start-up deadline armed).
    writeFileSync(join(x.home, 'slow'), '');
    await openAgentTab(x, false);
    assert.is(x.tabs.active?.snapshot().status, 'working');
    // (Working, so closing it asks first.)
    const closing = x.tabs.closeTab();
    await until(() => x.app.router.mode === 'ui', 'the question');
    x.input.write('y');
    await closing;
    assert.is(x.app.tabs.length, 1, 'only the shell is left');
    const closed = res.mark();

    // (The app's notice of each start stays up 8 s: a one-shot timer of the app's, gone by then.)
    let left: Record<string, number> = {};
    await until(() => Object.keys((left = res.leftBetween(mark, closed))).length === 0, 'what the tabs made to be gone', 12_000).catch(() => undefined);
    assert.equal(left, {}, 'timers and handles the tabs made, still there after they closed');
    assert.equal(listeners(process, x.input, x.output), baseListeners, 'listeners on the process and the terminal: as before');
    await until(() => childrenOf(process.pid).length === baseChildren, 'no CLI left running');
  }
});

s('idle agent tabs run no timer at all: nothing is polled', async () => {
  const x = await world();
  for (let i = 0; i < 3; i++) await openAgentTab(x);
  // Idle: the screens have settled, start-up is over.
  await new Promise((r) => setTimeout(r, 1500));
  // (The notice of the last start would stay up 8 s: a one-shot timer of the app's, not a tab's.)
  x.app.showMessage(undefined);
  await new Promise((r) => setTimeout(r, 100));
  // Every timer callback that runs meanwhile (a ticking interval runs many; a one-shot, once),
  // but the wait's own.
  const wait = new Promise((r) => setTimeout(r, 3000));
  const ran = await resources.timersRun(() => wait);
  ran.pop();
  assert.equal(ran, [], 'timer callbacks run while 3 agent tabs sat idle for 3 s');
});

s("a tab's notice is said once: later changes of the tab that say nothing do not show it again", async () => {
  const said: string[] = [];
  const x = await world((text) => said.push(text));
  await openAgentTab(x);
  await until(() => said.includes('Idle CLI started.'), 'the start said on the status line');
  // The status line moves on (another message, or the start's notice timed out).
  x.app.showMessage('something else');
  // The tab changes without a word: a switch armed (another model) and dropped again, as a
  // turn's start and end change it. By hand, "Claude Code started." came back at each.
  const tab = x.tabs.active!;
  assert.ok(tab.arm('idle', 'other-model').armed, 'a switch to another model armed');
  tab.arm('idle');
  assert.is(tab.snapshot().armed, undefined, 'and dropped');
  assert.equal(
    said.filter((m) => m === 'Idle CLI started.'),
    ['Idle CLI started.'],
    `the start said once: ${JSON.stringify(said)}`,
  );
  // A notice said again is news again.
  tab.say('Idle CLI started.');
  assert.is(said.filter((m) => m === 'Idle CLI started.').length, 2, `a new notice is said: ${JSON.stringify(said)}`);
});

/** The status line and the tab bar as the last frame drew them. */
function rows(x: World): { tabBar: string; status: string } {
  return x.app.chromeRows().rowsAt(100) ?? { tabBar: '', status: '' };
}

/** Brings tab `i` to the front and waits for the frame that shows it (the tab bar marks the front tab). */
async function front(x: World, i: number): Promise<void> {
  const before = rows(x).tabBar;
  x.app.select(i);
  await until(() => rows(x).tabBar !== before, `the frame with tab ${i + 1} in front`);
}

s("a tab's notice belongs to its tab: off when another comes to the front, told when its own does", async () => {
  const said: string[] = [];
  const x = await world((text) => said.push(text));
  await openAgentTab(x);
  const first = x.tabs.active!;
  await openAgentTab(x);
  await front(x, 0);
  // A refusal in the first tab (the words of one), on the status line while it is in front.
  first.say('Idle CLI is still working. Nothing was sent.');
  await until(() => rows(x).status.includes('Nothing was sent'), 'the notice on the status line');
  // By hand: it stayed on the status line over the second tab, for the rest of its 8 s.
  await front(x, 1);
  assert.not.match(rows(x).status, 'Nothing was sent', "the first tab's notice, over the second tab");
  // Said while its tab is behind: not over the second tab, but told when the first comes to the front.
  first.say('Idle CLI took your message after all: it is recorded once.');
  assert.not.ok(said.includes('Idle CLI took your message after all: it is recorded once.'), 'not said over another tab');
  await front(x, 0);
  assert.match(rows(x).status, 'took your message after all', 'told as its tab comes to the front');
  // Seen: going away and back does not tell it again.
  await front(x, 1);
  await front(x, 0);
  assert.equal(
    said.filter((m) => m.includes('after all')),
    ['Idle CLI took your message after all: it is recorded once.'],
    `told once: ${JSON.stringify(said)}`,
  );
  assert.not.match(rows(x).status, 'after all');
});

s.run();
