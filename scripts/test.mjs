#!/usr/bin/env node
// The one test command (`npm test`, and `.ci/run`) and its tiers:
//   npm test                         every tier (what CI runs)
//   npm run test:unit                test/unit: no PTY, git, child process or network, all
//                                    suites in ONE process (scripts/unit-guard.mjs refuses
//                                    those at run time; a unit file importing them fails here)
//   npm run test:integration         test/integration: git, PTYs, baton's own processes, the
//                                    ACP fixture agent, the plain-shell TUI
//   npm run test:real [-- claude]    test/real: the real agent CLIs (installed into .cache/, git-
//                                    ignored), optionally only the suites a CLI takes part in
// Any other argument filters suites by path. It lints first (`npm run lint`: Biome, see
// biome.jsonc), then type-checks (src, plugins, tests, benches) and builds dist/ when a tier
// runs the built program; it prints the ten slowest suites,
// and ends with the line `N passed, N failed, N skipped` summed over everything it ran.
// Integration and real suites each run in a process group of their own, so a hung or
// crashed suite is ended by its pgid and counted as a failure instead of hanging the run.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const SUITE_TIMEOUT_MS = Number(process.env.BATON_TEST_TIMEOUT_MS ?? 15 * 60_000);
const TIERS = ['unit', 'integration', 'real'];
const CLIS = ['claude', 'codex', 'gemini', 'qwen', 'opencode'];
/** What a unit suite may not import: the things the unit tier promises not to use. */
const UNIT_FORBIDDEN = /from\s+['"](node-pty|node:child_process|child_process|node:net|node:http|[^'"]*helpers\/(real-driver[^'"]*|cli-env|multi-cli-env|cli-runs|baton-in-env|baton-tui|term|run-cli|git-repo))(\.js)?['"]/;

function parseArgs(argv) {
  const tiers = [];
  let filters = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--tier') tiers.push(argv[++i]);
    else filters.push(a);
  }
  // For the real tier alone, a CLI's name picks the suites that CLI takes part in.
  const realOnly = tiers.length === 1 && tiers[0] === 'real';
  const clis = realOnly ? filters.filter((f) => CLIS.includes(f)) : [];
  for (const t of tiers) {
    if (!TIERS.includes(t)) {
      console.error(`unknown tier "${t}": use ${TIERS.join(', ')}`);
      process.exit(2);
    }
  }
  filters = filters.filter((f) => !clis.includes(f));
  return { tiers: tiers.length ? tiers : TIERS, filters, clis };
}

function step(cmd, args) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`test setup failed: ${cmd} ${args.join(' ')} (exit ${r.status ?? r.signal})`);
    console.log('0 passed, 1 failed, 0 skipped');
    process.exit(1);
  }
}

/**
 * The first step: `npm run lint` itself (package.json says what it runs). A finding fails the
 * run before anything is compiled, as a type error does: main is kept lint-clean, so a
 * finding is the change under test's own.
 */
function lint() {
  const r = spawnSync('npm', ['run', '--silent', 'lint'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`lint failed: npm run lint (exit ${r.status ?? r.signal ?? r.error?.message}); its findings are above`);
    console.log('0 passed, 1 failed, 0 skipped');
    process.exit(1);
  }
}

/** Both compiles at once (two cores): the build of dist/ and the check of everything. */
function compile(build) {
  const tsc = join(root, 'node_modules/typescript/bin/tsc');
  const runs = [['-p', 'tsconfig.test.json'], ...(build ? [['-p', 'tsconfig.json']] : [])];
  return Promise.all(runs.map((args) => new Promise((resolve) => {
    const child = spawn(process.execPath, [tsc, ...args], { cwd: root, stdio: 'inherit' });
    child.on('close', (code) => resolve(code === 0 ? null : `tsc ${args.join(' ')} (exit ${code})`));
  }))).then((failed) => {
    const bad = failed.filter(Boolean);
    if (bad.length) {
      console.error(`test setup failed: ${bad.join(', ')}`);
      console.log('0 passed, 1 failed, 0 skipped');
      process.exit(1);
    }
  });
}

function suitesIn(tier) {
  const dir = join(root, 'test', tier);
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter((n) => n.endsWith('.test.ts')).sort().map((n) => join(dir, n));
}

/** The CLIs a real suite drives, from its `// real CLIs: a, b` line. */
function clisOf(file) {
  const m = /^\/\/ real CLIs: (.+)$/m.exec(readFileSync(file, 'utf8'));
  return m ? m[1].split(',').map((s) => s.trim()) : CLIS;
}

function parseSummary(text) {
  const total = /Total:\s+(\d+)/.exec(text);
  const passed = /Passed:\s+(\d+)/.exec(text);
  const skipped = /Skipped:\s+(\d+)/.exec(text);
  if (!total || !passed) return null;
  return { passed: Number(passed[1]), failed: Number(total[1]) - Number(passed[1]), skipped: skipped ? Number(skipped[1]) : 0 };
}

/**
 * The baton servers a suite left running under its socket directory (their lock files hold
 * their pids): ended by pid, never by name, so no server outlives its suite.
 */
function endSuiteServers(runtime) {
  const dir = join(runtime, 'baton');
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.lock'))) {
    const pid = Number(readFileSync(join(dir, name), 'utf8').trim());
    if (Number.isInteger(pid) && pid > 1) {
      try { process.kill(pid, 'SIGKILL'); } catch {}
    }
  }
}

function runProcess(label, args, env) {
  return new Promise((resolve) => {
    const started = Date.now();
    // Each suite gets a socket directory of its own: suites running side by side never
    // meet one another's baton server, nor the user's.
    const runtime = mkdtempSync(join(tmpdir(), 'baton-test-run-'));
    chmodSync(runtime, 0o700);
    const child = spawn(process.execPath, args, {
      cwd: root,
      detached: true,
      env: { ...process.env, FORCE_COLOR: '0', XDG_RUNTIME_DIR: runtime, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const timer = setTimeout(() => {
      out += `\n[test runner] ${label} timed out after ${SUITE_TIMEOUT_MS} ms; ending its process group\n`;
      try { process.kill(-child.pid, 'SIGKILL'); } catch {}
    }, SUITE_TIMEOUT_MS);
    child.on('close', (code) => {
      clearTimeout(timer);
      // A suite may leave grandchildren (agent CLIs); its group is ours to end.
      try { process.kill(-child.pid, 'SIGKILL'); } catch {}
      endSuiteServers(runtime);
      rmSync(runtime, { recursive: true, force: true });
      let summary = parseSummary(out);
      if (!summary) summary = { passed: 0, failed: 1, skipped: 0 };
      else if (code !== 0 && summary.failed === 0) summary.failed = 1;
      resolve({ label, out, summary, ms: Date.now() - started });
    });
  });
}

function report(r) {
  const s = r.summary;
  process.stdout.write(`\n── ${r.label}  (${s.passed} passed, ${s.failed} failed, ${s.skipped} skipped, ${(r.ms / 1000).toFixed(1)} s)\n`);
  if (s.failed > 0 || process.env.BATON_TEST_VERBOSE) process.stdout.write(r.out);
}

async function runPool(files, width, env) {
  const results = [];
  let next = 0;
  async function worker() {
    while (next < files.length) {
      const file = files[next++];
      const r = await runProcess(relative(root, file), ['--import', 'tsx', file], env);
      report(r);
      results.push(r);
    }
  }
  await Promise.all(Array.from({ length: width }, worker));
  return results;
}

/** The unit tier in one process: uvu runs every suite it is given and prints one total. */
async function runUnit(files) {
  const offenders = files.filter((f) => UNIT_FORBIDDEN.test(readFileSync(f, 'utf8')));
  const results = offenders.map((f) => {
    const r = { label: relative(root, f), out: `${relative(root, f)} imports what the unit tier must not use (node-pty, child_process, the network, git or a real-CLI helper): move it to test/integration\n`, summary: { passed: 0, failed: 1, skipped: 0 }, ms: 0 };
    report(r);
    return r;
  });
  const ok = files.filter((f) => !offenders.includes(f));
  if (!ok.length) return results;
  const r = await runProcess(`test/unit (${ok.length} suites, one process)`, ['--import', './scripts/unit-guard.mjs', '--import', 'tsx', 'scripts/run-unit.mjs', ...ok.map((f) => relative(root, f))]);
  report(r);
  return [...results, r];
}

const { tiers, filters, clis } = parseArgs(process.argv.slice(2));
const pick = (files) => (filters.length ? files.filter((f) => filters.some((x) => relative(root, f).includes(x))) : files);
const plan = {
  unit: tiers.includes('unit') ? pick(suitesIn('unit')) : [],
  integration: tiers.includes('integration') ? pick(suitesIn('integration')) : [],
  real: tiers.includes('real') ? pick(suitesIn('real')).filter((f) => !clis.length || clisOf(f).some((c) => clis.includes(c))) : [],
};
const started = Date.now();
lint();
await compile(plan.integration.length > 0 || plan.real.length > 0);
if (plan.real.length && existsSync(join(root, 'scripts/install-test-clis.mjs')) && !process.env.BATON_SKIP_CLI_INSTALL) {
  step(process.execPath, [join(root, 'scripts/install-test-clis.mjs')]);
}
const realEnv = clis.length ? { BATON_TEST_CLIS: clis.join(',') } : {};
// Integration suites are light enough to run two at a time (2 cores); suites that drive
// the real CLIs run one at a time so they do not starve each other.
const results = [
  ...(await runUnit(plan.unit)),
  ...(await runPool(plan.integration, 2)),
  ...(await runPool(plan.real, 1, realEnv)),
];

const slowest = [...results].sort((a, b) => b.ms - a.ms).slice(0, 10);
console.log('\nslowest suites:');
for (const r of slowest) console.log(`  ${(r.ms / 1000).toFixed(1).padStart(7)} s  ${r.label}`);
const sum = results.reduce(
  (a, r) => ({ passed: a.passed + r.summary.passed, failed: a.failed + r.summary.failed, skipped: a.skipped + r.summary.skipped }),
  { passed: 0, failed: 0, skipped: 0 },
);
const failed = results.filter((r) => r.summary.failed > 0).map((r) => r.label);
if (failed.length) console.log(`\nfailing suites: ${failed.join(', ')}`);
console.log(`\nran ${tiers.join(' + ')} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
console.log(`\n${sum.passed} passed, ${sum.failed} failed, ${sum.skipped} skipped`);
process.exit(sum.failed > 0 || results.length === 0 ? 1 : 0);
