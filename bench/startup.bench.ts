// Start-up figures with the real agent CLIs on PATH (the pinned ones in .cache/clis): how
// long `baton agents` takes, and in the TUI how long until the new-tab picker is drawn and
// until every installed agent's version shows in it; each with an empty version cache (a
// fresh BATON_HOME) and again with the cache the first run left. The reference, measured in
// the same run, is `baton --help` (starting Node and baton, nothing detected).
// Everything started here is ended by process group.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TestTerminal } from '../test/helpers/term.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ROUNDS = Number(process.env.BATON_BENCH_ROUNDS ?? 3);
const CLI_BIN = join(ROOT, '.cache/clis/node_modules/.bin');
/** The agents whose versions the picker must show (those installed in .cache/clis). */
const AGENTS = ['Claude Code', 'Codex CLI', 'Gemini CLI', 'opencode', 'Qwen Code'];

if (!existsSync(CLI_BIN)) {
  console.log(`skipped: no agent CLIs in ${CLI_BIN} (npm test installs them)`);
  process.exit(0);
}
spawnSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], { cwd: ROOT, stdio: 'ignore' });
const CLI = join(ROOT, 'dist/src/cli.js');

function freshEnv(): { env: Record<string, string>; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'baton-bench-startup-'));
  for (const d of ['config', 'home', 'work']) mkdirSync(join(dir, d));
  return {
    dir,
    env: {
      PATH: [CLI_BIN, dirname(process.execPath), '/usr/bin', '/bin'].join(delimiter),
      HOME: join(dir, 'home'),
      BATON_HOME: join(dir, 'baton'),
      XDG_CONFIG_HOME: join(dir, 'config'),
      TERM: 'xterm-256color',
      LANG: 'C.UTF-8',
      SHELL: '/bin/sh',
    },
  };
}

function timed(args: string[], env: Record<string, string>): number {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [CLI, ...args], { env, encoding: 'utf8' });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`bench: baton ${args.join(' ')} failed: ${r.stderr}`);
  return ms;
}

/** Time to the picker being drawn, and to every agent's version in it. */
async function picker(env: Record<string, string>, cwd: string): Promise<{ drawn: number; versions: number }> {
  const t0 = performance.now();
  const t = new TestTerminal([process.execPath, CLI, cwd], { cols: 120, rows: 36, cwd, env });
  try {
    await t.waitFor(/Plain shell/, 60_000, 'the picker');
    const drawn = performance.now() - t0;
    await t.waitFor((s) => AGENTS.every((a) => new RegExp(`${a}  \\d`).test(s)), 60_000, 'every version in the picker');
    return { drawn, versions: performance.now() - t0 };
  } finally {
    await t.kill();
  }
}

const fmt = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return `median ${(s[Math.floor(s.length / 2)]! / 1000).toFixed(2)} s (${s.map((x) => (x / 1000).toFixed(2)).join(' / ')})`;
};

const help: number[] = [];
const agentsCold: number[] = [];
const agentsWarm: number[] = [];
const drawnCold: number[] = [];
const versionsCold: number[] = [];
const drawnWarm: number[] = [];
const versionsWarm: number[] = [];
for (let i = 0; i < ROUNDS; i++) {
  const a = freshEnv();
  try {
    help.push(timed(['--help'], a.env));
    agentsCold.push(timed(['agents'], a.env));
    agentsWarm.push(timed(['agents'], a.env));
  } finally {
    rmSync(a.dir, { recursive: true, force: true });
  }
  const b = freshEnv();
  try {
    const cold = await picker(b.env, join(b.dir, 'work'));
    drawnCold.push(cold.drawn);
    versionsCold.push(cold.versions);
    const warm = await picker(b.env, join(b.dir, 'work'));
    drawnWarm.push(warm.drawn);
    versionsWarm.push(warm.versions);
  } finally {
    rmSync(b.dir, { recursive: true, force: true });
  }
}
console.log(`${ROUNDS} rounds; agents on PATH: ${AGENTS.join(', ')} (.cache/clis)`);
console.log(`baton --help (reference):                 ${fmt(help)}`);
console.log(`baton agents, empty version cache:        ${fmt(agentsCold)}`);
console.log(`baton agents, again (cache filled):       ${fmt(agentsWarm)}`);
console.log(`TUI picker drawn, empty version cache:    ${fmt(drawnCold)}`);
console.log(`TUI every version shown, empty cache:     ${fmt(versionsCold)}`);
console.log(`TUI picker drawn, again (cache filled):   ${fmt(drawnWarm)}`);
console.log(`TUI every version shown, again:           ${fmt(versionsWarm)}`);
