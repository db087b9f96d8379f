#!/usr/bin/env node
// Installs the real agent CLIs that baton's tests drive (claude, codex, gemini, qwen,
// opencode, codex-acp, claude-code-acp) at the versions pinned in test/clis/package.json
// + package-lock.json, into .cache/clis/ inside the repo (git-ignored). It runs `npm install`
// on a copy of the pinned lockfile rather than `npm ci`: the registry reachable here lacks
// other platforms' optional binaries (opencode-darwin-arm64, ...), so npm writes a lockfile
// without them and `npm ci` then refuses it as out of sync. `npm install` still takes every
// version from the lockfile.
// Runs on every `npm test`, so the up-to-date path is one hash and a few stat calls.
// It must never install anything globally, nor touch the user's home config: npm runs
// with the cache dir as its only prefix, and inherited npm_config_* variables (set when
// this runs under `npm test`) are dropped so none of them can redirect the install.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const pinDir = join(root, 'test/clis');
const dest = join(root, '.cache/clis');
const stampFile = join(dest, '.installed-stamp');
const lockDir = join(root, '.cache/clis.installing');
const PINNED_FILES = ['package.json', 'package-lock.json'];
// The commands the tests look up in .cache/clis/node_modules/.bin; if one is gone the
// install is redone even when the stamp matches.
const TEST_CLI_BINS = ['claude', 'codex', 'gemini', 'qwen', 'opencode', 'codex-acp', 'claude-code-acp'];

function pinHash() {
  const h = createHash('sha256');
  for (const f of PINNED_FILES)
    h.update(f)
      .update('\0')
      .update(readFileSync(join(pinDir, f)));
  // Native parts (node-pty in gemini, the per-platform binaries) depend on these.
  h.update(`${process.platform}-${process.arch}-node${process.versions.modules}`);
  return h.digest('hex').slice(0, 16);
}

function upToDate(hash) {
  try {
    if (readFileSync(stampFile, 'utf8').trim() !== hash) return false;
  } catch {
    return false;
  }
  return TEST_CLI_BINS.every((b) => existsSync(join(dest, 'node_modules/.bin', b)));
}

function pidAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === 'EPERM';
  }
}

// Two `npm test` runs at once must not both run npm into the same folder.
function takeLock() {
  const deadline = Date.now() + 15 * 60_000;
  mkdirSync(join(root, '.cache'), { recursive: true });
  for (;;) {
    try {
      mkdirSync(lockDir);
      writeFileSync(join(lockDir, 'pid'), String(process.pid));
      return;
    } catch (e) {
      if (e.code !== 'EEXIST') throw e;
      let owner = 0;
      try {
        owner = Number(readFileSync(join(lockDir, 'pid'), 'utf8'));
      } catch {}
      const age = (() => {
        try {
          return Date.now() - statSync(lockDir).mtimeMs;
        } catch {
          return 0;
        }
      })();
      if ((owner && !pidAlive(owner)) || (!owner && age > 10_000)) {
        rmSync(lockDir, { recursive: true, force: true });
        continue;
      }
      if (Date.now() > deadline) throw new Error(`another install holds ${lockDir} (pid ${owner})`);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 500);
    }
  }
}

function cleanEnv() {
  const env = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (/^npm_(config|package|lifecycle)_/i.test(k) || k === 'npm_command' || k === 'npm_execpath') continue;
    env[k] = v;
  }
  // Not global, no update notices, no audit calls: a plain local install from the lockfile.
  Object.assign(env, {
    npm_config_global: 'false',
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
  });
  return env;
}

// Read from the installed package.json files: some of these commands have no --version
// (codex-acp), and starting an agent just to ask would be slow.
function versions() {
  const deps = JSON.parse(readFileSync(join(pinDir, 'package.json'), 'utf8')).dependencies;
  return Object.keys(deps)
    .map((name) => {
      try {
        return `${name}@${JSON.parse(readFileSync(join(dest, 'node_modules', name, 'package.json'), 'utf8')).version}`;
      } catch {
        return `${name}@(missing)`;
      }
    })
    .join(', ');
}

function main() {
  const hash = pinHash();
  if (upToDate(hash)) {
    console.log(`test CLIs up to date in .cache/clis (${hash})`);
    return 0;
  }
  takeLock();
  try {
    if (upToDate(hash)) {
      console.log(`test CLIs up to date in .cache/clis (${hash}, installed by another run)`);
      return 0;
    }
    const started = Date.now();
    console.log(`installing test CLIs into .cache/clis (pins ${hash}) ...`);
    mkdirSync(dest, { recursive: true });
    rmSync(stampFile, { force: true });
    for (const f of PINNED_FILES) copyFileSync(join(pinDir, f), join(dest, f));
    const npmCli = join(process.execPath, '../../lib/node_modules/npm/bin/npm-cli.js');
    const [cmd, pre] = existsSync(npmCli) ? [process.execPath, [npmCli]] : ['npm', []];
    const r = spawnSync(cmd, [...pre, 'install', '--prefix', dest, '--no-save', '--no-audit', '--no-fund', '--loglevel=error'], {
      cwd: dest,
      stdio: 'inherit',
      env: cleanEnv(),
    });
    if (r.status !== 0) {
      console.error(`install-test-clis: npm install failed (exit ${r.status ?? r.signal}); see the output above`);
      return 1;
    }
    const missing = TEST_CLI_BINS.filter((b) => !existsSync(join(dest, 'node_modules/.bin', b)));
    if (missing.length) {
      console.error(`install-test-clis: installed, but these commands are missing: ${missing.join(', ')}`);
      return 1;
    }
    writeFileSync(stampFile, `${hash}\n`);
    console.log(`installed test CLIs in ${((Date.now() - started) / 1000).toFixed(1)} s: ${versions()}`);
    return 0;
  } finally {
    rmSync(lockDir, { recursive: true, force: true });
  }
}

process.exitCode = main();
