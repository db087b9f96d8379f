#!/usr/bin/env node
// The one test command (`npm test`, and `.ci/run`): builds baton, installs the test-only
// agent CLIs into .cache/ (git-ignored), runs every uvu suite in its own process, and
// ends with the line `N passed, N failed, N skipped` summed over all of them.
// Each suite file is a process group of its own, so a hung or crashed suite is ended
// by its pgid and counted as a failure instead of hanging the run.
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, statSync, existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const SUITE_TIMEOUT_MS = Number(process.env.BATON_TEST_TIMEOUT_MS ?? 15 * 60_000);

function step(cmd, args) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`test setup failed: ${cmd} ${args.join(' ')} (exit ${r.status ?? r.signal})`);
    console.log('0 passed, 1 failed');
    process.exit(1);
  }
}

function findTests(dir) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) {
      if (name !== 'helpers' && name !== 'fixtures') out.push(...findTests(p));
    } else if (name.endsWith('.test.ts')) out.push(p);
  }
  return out;
}

function parseSummary(text) {
  const total = /Total:\s+(\d+)/.exec(text);
  const passed = /Passed:\s+(\d+)/.exec(text);
  const skipped = /Skipped:\s+(\d+)/.exec(text);
  if (!total || !passed) return null;
  return {
    passed: Number(passed[1]),
    failed: Number(total[1]) - Number(passed[1]),
    skipped: skipped ? Number(skipped[1]) : 0,
  };
}

function runFile(file) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(process.execPath, ['--import', 'tsx', file], {
      cwd: root,
      detached: true,
      env: { ...process.env, FORCE_COLOR: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const timer = setTimeout(() => {
      out += `\n[test runner] ${relative(root, file)} timed out after ${SUITE_TIMEOUT_MS} ms; ending its process group\n`;
      try { process.kill(-child.pid, 'SIGKILL'); } catch {}
    }, SUITE_TIMEOUT_MS);
    child.on('close', (code) => {
      clearTimeout(timer);
      // A suite may leave grandchildren (agent CLIs); its group is ours to end.
      try { process.kill(-child.pid, 'SIGKILL'); } catch {}
      let summary = parseSummary(out);
      if (!summary) summary = { passed: 0, failed: 1, skipped: 0 };
      else if (code !== 0 && summary.failed === 0) summary.failed = 1;
      resolve({ file, out, summary, code, ms: Date.now() - started });
    });
  });
}

async function runPool(files, width) {
  const results = [];
  let next = 0;
  async function worker() {
    while (next < files.length) {
      const r = await runFile(files[next++]);
      const s = r.summary;
      process.stdout.write(`\n── ${relative(root, r.file)}  (${s.passed} passed, ${s.failed} failed, ${s.skipped} skipped, ${(r.ms / 1000).toFixed(1)} s)\n`);
      if (s.failed > 0 || process.env.BATON_TEST_VERBOSE) process.stdout.write(r.out);
      results.push(r);
    }
  }
  await Promise.all(Array.from({ length: width }, worker));
  return results;
}

const filters = process.argv.slice(2);
step(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json']);
// The tests and benches are TypeScript too, run through tsx (which strips types without
// checking them): checked here, so a test cannot drift from the API it tests.
step(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.test.json']);
if (existsSync(join(root, 'scripts/install-test-clis.mjs')) && !process.env.BATON_SKIP_CLI_INSTALL) {
  step(process.execPath, [join(root, 'scripts/install-test-clis.mjs')]);
}

let files = findTests(join(root, 'test'));
if (filters.length) files = files.filter((f) => filters.some((x) => f.includes(x)));
// Unit suites are light and run two at a time (2 cores); suites that drive real
// PTYs and agent CLIs run one at a time so they do not starve each other.
const heavy = (f) => /[/\\](e2e|real)[/\\]/.test(f);
const results = [
  ...(await runPool(files.filter((f) => !heavy(f)), 2)),
  ...(await runPool(files.filter(heavy), 1)),
];

const sum = results.reduce(
  (a, r) => ({ passed: a.passed + r.summary.passed, failed: a.failed + r.summary.failed, skipped: a.skipped + r.summary.skipped }),
  { passed: 0, failed: 0, skipped: 0 },
);
const failedFiles = results.filter((r) => r.summary.failed > 0).map((r) => relative(root, r.file));
if (failedFiles.length) console.log(`\nfailing suites: ${failedFiles.join(', ')}`);
console.log(`\n${sum.passed} passed, ${sum.failed} failed, ${sum.skipped} skipped`);
process.exit(sum.failed > 0 || files.length === 0 ? 1 : 0);
