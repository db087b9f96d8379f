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
// crashed suite is ended by its pgid and counted as a failure instead of hanging the run;
// BATON_TEST_JOBS integration suites run at once (default: the cores, at least 2) and,
// beside them, BATON_TEST_REAL_JOBS real ones (default 2), which mostly wait for their CLIs.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const SUITE_TIMEOUT_MS = Number(process.env.BATON_TEST_TIMEOUT_MS ?? 15 * 60_000);
const LINGER_MS = 10_000;
const TIERS = ['unit', 'integration', 'real'];
const CLIS = ['claude', 'codex', 'gemini', 'qwen', 'opencode'];
/** What a unit suite may not import: the things the unit tier promises not to use. */
const UNIT_FORBIDDEN =
  /from\s+['"](node-pty|node:child_process|child_process|node:net|node:http|[^'"]*helpers\/(real-driver[^'"]*|cli-env|multi-cli-env|cli-runs|baton-in-env|baton-tui|term|run-cli|git-repo))(\.js)?['"]/;

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

/** A positive whole number from the environment, else the default. */
function positive(name, fallback) {
  const n = Number(process.env[name]);
  return Number.isInteger(n) && n > 0 ? n : fallback;
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
  return Promise.all(
    runs.map(
      (args) =>
        new Promise((resolve) => {
          const child = spawn(process.execPath, [tsc, ...args], { cwd: root, stdio: 'inherit' });
          child.on('close', (code) => resolve(code === 0 ? null : `tsc ${args.join(' ')} (exit ${code})`));
        }),
    ),
  ).then((failed) => {
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
  return readdirSync(dir)
    .filter((n) => n.endsWith('.test.ts'))
    .sort()
    .map((n) => join(dir, n));
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
  // uvu's Duration runs from its first test to its last: the rest of the process's time is
  // loading before and lingering after (a timer or handle left open).
  const duration = /Duration:\s+([\d.]+)ms/.exec(text);
  if (!total || !passed) return null;
  return {
    passed: Number(passed[1]),
    failed: Number(total[1]) - Number(passed[1]),
    skipped: skipped ? Number(skipped[1]) : 0,
    testsMs: duration ? Number(duration[1]) : undefined,
  };
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
      try {
        process.kill(pid, 'SIGKILL');
      } catch {}
    }
  }
}

/**
 * What is still running in a suite's process group once its process has exited, by command
 * name: a child a test did not end. tsx's esbuild service is not counted: it ends with its
 * parent's pipe, a moment later, whatever the test did.
 */
function groupLeftovers(pgid) {
  const names = [];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      const fields = stat.slice(close + 2).split(' ');
      // After the name: state, ppid, pgrp.
      if (Number(fields[2]) !== pgid || fields[0] === 'Z') continue;
      const name = stat.slice(stat.indexOf('(') + 1, close);
      if (name === 'esbuild') continue;
      names.push(`${name} (${d})`);
    } catch {
      // Gone meanwhile.
    }
  }
  return names;
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
    // Once uvu has printed its totals the tests are over; a process still running 10 s later
    // is kept alive by something a test left (a timer, a handle, a child): it is ended and
    // reported, not waited for up to the suite's timeout.
    let lingered = false;
    let linger;
    const take = (d) => {
      out += d;
      if (linger === undefined && /Duration:\s+[\d.]+ms/.test(out)) {
        linger = setTimeout(() => {
          lingered = true;
          try {
            process.kill(-child.pid, 'SIGKILL');
          } catch {}
        }, LINGER_MS);
      }
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    const timer = setTimeout(() => {
      out += `\n[test runner] ${label} timed out after ${SUITE_TIMEOUT_MS} ms; ending its process group\n`;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {}
    }, SUITE_TIMEOUT_MS);
    // Done when the suite's process exits: what it left in its group is ended then, and its
    // output is read to the end. A process outside the group that still holds the output
    // (a daemon in a session of its own) is not waited for beyond a moment: it is reported.
    child.on('exit', (code) => {
      const ms = Date.now() - started;
      clearTimeout(timer);
      clearTimeout(linger);
      // A suite may leave grandchildren (agent CLIs); its group is ours to end.
      const leftInGroup = groupLeftovers(child.pid);
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {}
      endSuiteServers(runtime);
      rmSync(runtime, { recursive: true, force: true });
      let finished = false;
      const finish = (held) => {
        if (finished) return;
        finished = true;
        clearTimeout(wait);
        let summary = parseSummary(out);
        if (!summary) summary = { passed: 0, failed: 1, skipped: 0 };
        else if (code !== 0 && summary.failed === 0 && !lingered) summary.failed = 1;
        const left = [
          lingered && `its process running ${LINGER_MS / 1000} s after its last test (ended)`,
          leftInGroup.length > 0 && `in its group ${leftInGroup.join(', ')} (ended)`,
          held && 'a process outside its group holding its output',
        ].filter(Boolean);
        resolve({ label, out, summary, ms, left });
      };
      const wait = setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
        finish(true);
      }, 2000);
      child.once('close', () => finish(false));
    });
  });
}

function report(r) {
  const s = r.summary;
  const tests = s.testsMs === undefined ? '' : `; tests ${(s.testsMs / 1000).toFixed(1)} s`;
  const left = r.left?.length ? `; left ${r.left.join(' and ')}` : '';
  process.stdout.write(`\n── ${r.label}  (${s.passed} passed, ${s.failed} failed, ${s.skipped} skipped, ${(r.ms / 1000).toFixed(1)} s${tests}${left})\n`);
  if (s.failed > 0 || process.env.BATON_TEST_VERBOSE) process.stdout.write(r.out);
}

/**
 * Runs the integration suites `width` at a time and, beside them, the real suites `realWidth`
 * at a time, each lane longest first by the last run's times where there are some. A real
 * suite mostly waits (for a CLI to start, for the fake LLM, for a turn's timeout: claude's
 * 63 s used 14 s of CPU), so the real ones take a fraction of a core between them, and
 * holding the integration suites back until they were done (one shared pool) left the
 * cores idle for most of the real tier.
 */
async function runPool(integration, real, { width, realWidth, realEnv }) {
  const known = readTimes();
  const longestFirst = (files) => [...files].sort((a, b) => (known[relative(root, b)] ?? 0) - (known[relative(root, a)] ?? 0));
  const results = [];
  async function lane(queue, env) {
    for (let file = queue.shift(); file; file = queue.shift()) {
      const r = await runProcess(relative(root, file), ['--import', 'tsx', file], env);
      report(r);
      results.push(r);
    }
  }
  const reals = longestFirst(real);
  const integrations = longestFirst(integration);
  await Promise.all([...Array.from({ length: realWidth }, () => lane(reals, realEnv)), ...Array.from({ length: width }, () => lane(integrations, {}))]);
  writeTimes(known, results);
  return results;
}

/** Each suite's last time (by path), kept in .cache/ to start the long ones first. Only a hint. */
const timesFile = join(root, '.cache/test-times.json');
function readTimes() {
  try {
    return JSON.parse(readFileSync(timesFile, 'utf8'));
  } catch {
    return {};
  }
}
function writeTimes(known, results) {
  const times = { ...known };
  for (const r of results) if (r.summary.failed === 0) times[r.label] = r.ms;
  try {
    mkdirSync(dirname(timesFile), { recursive: true });
    // Checkouts may share .cache/ (a symlink): write whole, then rename over.
    const tmp = `${timesFile}.${process.pid}`;
    writeFileSync(tmp, `${JSON.stringify(times, null, 1)}\n`);
    renameSync(tmp, timesFile);
  } catch {
    // Only a hint for the order.
  }
}

/** The unit tier in one process: uvu runs every suite it is given and prints one total. */
async function runUnit(files) {
  const offenders = files.filter((f) => UNIT_FORBIDDEN.test(readFileSync(f, 'utf8')));
  const results = offenders.map((f) => {
    const r = {
      label: relative(root, f),
      out: `${relative(root, f)} imports what the unit tier must not use (node-pty, child_process, the network, git or a real-CLI helper): move it to test/integration\n`,
      summary: { passed: 0, failed: 1, skipped: 0 },
      ms: 0,
    };
    report(r);
    return r;
  });
  const ok = files.filter((f) => !offenders.includes(f));
  if (!ok.length) return results;
  const r = await runProcess(`test/unit (${ok.length} suites, one process)`, [
    '--import',
    './scripts/unit-guard.mjs',
    '--import',
    'tsx',
    'scripts/run-unit.mjs',
    ...ok.map((f) => relative(root, f)),
  ]);
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
const width = positive('BATON_TEST_JOBS', Math.max(2, availableParallelism()));
const realWidth = positive('BATON_TEST_REAL_JOBS', 2);
const results = [...(await runUnit(plan.unit)), ...(await runPool(plan.integration, plan.real, { width, realWidth, realEnv }))];

const slowest = [...results].sort((a, b) => b.ms - a.ms).slice(0, 10);
console.log('\nslowest suites:');
for (const r of slowest) console.log(`  ${(r.ms / 1000).toFixed(1).padStart(7)} s  ${r.label}`);
const sum = results.reduce((a, r) => ({ passed: a.passed + r.summary.passed, failed: a.failed + r.summary.failed, skipped: a.skipped + r.summary.skipped }), {
  passed: 0,
  failed: 0,
  skipped: 0,
});
const leaving = results.filter((r) => r.left?.length);
if (leaving.length) {
  console.log('\nsuites that left something running:');
  for (const r of leaving) console.log(`  ${r.label}: ${r.left.join('; ')}`);
}
const failed = results.filter((r) => r.summary.failed > 0).map((r) => r.label);
if (failed.length) console.log(`\nfailing suites: ${failed.join(', ')}`);
console.log(`\nran ${tiers.join(' + ')} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
console.log(`\n${sum.passed} passed, ${sum.failed} failed, ${sum.skipped} skipped`);
process.exit(sum.failed > 0 || results.length === 0 ? 1 : 0);
