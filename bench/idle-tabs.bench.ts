// What 8 idle agent tabs cost baton, measured in this process with process.cpuUsage (CPU
// time, which a loaded machine distorts far less than wall time): each tab is what the TUI
// builds for an agent (Tab + pane + TabTerminal + TabSession following the CLI's log), its
// CLI a drop-in written here that draws a prompt and then waits, as an agent CLI does
// between turns. Also how many timers and handles the idle tabs keep, and what is left
// once they are closed (nothing should be). Target: under 0.5% of a core for 8 idle tabs.
// Everything started here is ended by the tabs' own dispose (process groups, by pid).

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TabSession } from '../src/conversation/tab-session.js';
import { loadRegistry } from '../src/plugins/registry.js';
import { createConversation } from '../src/transcript/store.js';
import { TabTerminal } from '../src/tui/tab-terminal.js';
import { Tab } from '../src/tui/tab.js';

const TABS = Number(process.env.BATON_BENCH_TABS ?? 8);
const IDLE_S = Number(process.env.BATON_BENCH_IDLE_S ?? 10);

// An agent CLI between turns: a prompt on screen, nothing more until it is typed at.
const CLI = `process.stdout.write('idle-cli ready\\n> ');
process.stdin.resume();
`;

const dropIn = (cli: string) => `export default (kit) => ({
  name: 'idle',
  title: 'Idle CLI',
  families: [],
  capabilities: { resume: false, fork: false },
  async detect() { return { installed: true, installHint: 'written by bench/idle-tabs.bench.ts' }; },
  launch(opts) {
    return { command: process.execPath, args: [${JSON.stringify(cli)}], env: {}, cwd: opts.cwd };
  },
  async ingest(opts) {
    const tail = await kit.tailJsonl(opts.env.IDLE_CLI_LOG, { onRecord: (r) => opts.onEvent(r) });
    return { agentSession: undefined, skipped: 0, dispose: () => tail.dispose() };
  },
  statusFromScreen(lines) {
    return lines.some((l) => l.startsWith('> ')) ? 'idle' : undefined;
  },
});
`;

/** Active handles and requests by kind (Timeout, TTYWrap, FSEventWrap, ...). */
function resources(): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of process.getActiveResourcesInfo()) out[r] = (out[r] ?? 0) + 1;
  return out;
}

const fmt = (r: Record<string, number>) =>
  Object.entries(r)
    .sort()
    .map(([k, n]) => `${k} ${n}`)
    .join(', ') || 'none';

async function until(cond: () => boolean, what: string, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`bench: timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function main(): Promise<void> {
  const home = mkdtempSync(join(tmpdir(), 'baton-idle-'));
  try {
    const cli = join(home, 'idle-cli.mjs');
    writeFileSync(cli, CLI);
    const plugins = join(home, 'plugins');
    mkdirSync(plugins);
    writeFileSync(join(plugins, 'idle.mjs'), dropIn(cli));
    const log = join(home, 'cli-log.jsonl');
    writeFileSync(log, '');
    const env = { ...process.env, BATON_HOME: join(home, 'baton'), XDG_CONFIG_HOME: join(home, 'config'), IDLE_CLI_LOG: log };
    const registry = await loadRegistry({ env, builtinDir: false, pluginDirs: [plugins] });
    const before = resources();

    const open: { tab?: Tab; terminal: TabTerminal; session: TabSession }[] = [];
    for (let i = 0; i < TABS; i++) {
      const conv = await createConversation(join(home, 'baton'), { cwd: home, title: `idle ${i}`, user: { type: 'user', name: 'bench', device: 'bench' } });
      const entry: (typeof open)[number] = {} as (typeof open)[number];
      entry.terminal = new TabTerminal((launch) => (entry.tab = new Tab(launch, { cols: 100, rows: 30, baseEnv: { PATH: process.env.PATH } })));
      entry.session = new TabSession({ conversation: conv, registry, terminal: entry.terminal, env });
      const outcome = await entry.session.start('idle');
      if (outcome.kind !== 'started') throw new Error(`bench: tab ${i} did not start: ${outcome.message}`);
      open.push(entry);
    }
    await until(() => open.every((e) => e.session.status.current === 'idle'), 'every tab idle');
    // Let start-up settle (the quiet wait after launch, the first compaction).
    await new Promise((r) => setTimeout(r, 2000));
    const idle = resources();
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    await new Promise((r) => setTimeout(r, IDLE_S * 1000));
    const used = process.cpuUsage(c0);
    const wall = performance.now() - t0;
    const pct = ((used.user + used.system) / 1000 / wall) * 100;

    for (const e of open) {
      await e.session.dispose();
      e.terminal.dispose();
      await e.tab?.dispose();
    }
    await registry.dispose();
    // Closed handles leave the list on the next turn of the event loop.
    await new Promise((r) => setTimeout(r, 200));
    const after = resources();
    console.log(`load ${(await import('node:fs')).readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
    console.log(`resources before the tabs: ${fmt(before)}`);
    console.log(`resources with ${TABS} idle tabs: ${fmt(idle)}`);
    console.log(`resources after closing them: ${fmt(after)}`);
    console.log(
      `CPU with ${TABS} idle agent tabs (in-process, process.cpuUsage): ${pct.toFixed(3)}% of a core over ${(wall / 1000).toFixed(1)} s (user ${(used.user / 1000).toFixed(1)} ms, system ${(used.system / 1000).toFixed(1)} ms; target < 0.5%)`,
    );
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

await main();
process.exit(0);
