// detect() of a built-in driver from its facts, against real executables on a PATH of a
// temp dir: not installed; the version read from the npm package the resolved executable
// belongs to (through a .bin link, at or above bin/) without starting it; `--version` asked
// when there is no such package, and remembered for that executable file. (Whether a version is inside the tested range is the
// registry's verdict: test/unit/normalize-driver.test.ts.)
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { detectCli, type CliFacts } from '../../src/plugins/detect-cli.js';
import { npmPackageVersion } from '../../src/plugins/find-executable.js';

let dir = '';
const t = suite('detect-cli');
t.before.each(() => {
  dir = mkdtempSync(join(tmpdir(), 'baton-detect-'));
});
t.after.each(() => rmSync(dir, { recursive: true, force: true }));

const facts = (more: Partial<CliFacts> = {}): CliFacts => ({ command: 'tool', installHint: 'npm i -g @acme/tool', loginHint: 'tool login', ...more });

/** An executable that says `said` when run (and leaves a mark that it ran). */
function script(path: string, said: string): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, `#!/bin/sh\necho ran > "${join(dir, 'ran')}"\necho "${said}"\n`);
  chmodSync(path, 0o755);
}

/** node_modules/@acme/tool with package.json and bin/tool, linked from node_modules/.bin/tool. */
function npmInstall(pkg: object): string {
  const root = join(dir, 'node_modules', '@acme', 'tool');
  script(join(root, 'bin', 'tool'), 'tool 0.0.1');
  writeFileSync(join(root, 'package.json'), JSON.stringify(pkg));
  const bin = join(dir, 'node_modules', '.bin');
  mkdirSync(bin, { recursive: true });
  symlinkSync('../@acme/tool/bin/tool', join(bin, 'tool'));
  return bin;
}

t('not on the PATH: not installed, with the hints', async () => {
  assert.equal(await detectCli(facts(), { PATH: join(dir, 'empty') }), { installed: false, installHint: 'npm i -g @acme/tool', loginHint: 'tool login' });
});

t('the npm package says the version: the CLI is not started', async () => {
  const bin = npmInstall({ name: '@acme/tool', version: '1.2.7' });
  const got = await detectCli(facts({ npmPackage: '@acme/tool' }), { PATH: bin });
  assert.equal(got, { installed: true, installHint: 'npm i -g @acme/tool', loginHint: 'tool login', path: join(bin, 'tool'), version: '1.2.7' });
  assert.is(npmPackageVersion(join(bin, 'tool'), '@acme/tool'), '1.2.7');
  assert.is(existsSync(join(dir, 'ran')), false, 'the CLI was started although its package said the version');
});

t('another package of that name nowhere above: --version is asked', async () => {
  const bin = npmInstall({ name: '@other/tool', version: '1.2.7' });
  assert.is(npmPackageVersion(join(bin, 'tool'), '@acme/tool'), undefined);
  const got = await detectCli(facts({ npmPackage: '@acme/tool' }), { PATH: bin });
  assert.is(existsSync(join(dir, 'ran')), true);
  assert.equal(got, { installed: true, installHint: 'npm i -g @acme/tool', loginHint: 'tool login', path: join(bin, 'tool'), version: '0.0.1' });
});

t('no npm package named: --version is asked', async () => {
  const bin = join(dir, 'bin');
  script(join(bin, 'tool'), 'tool version 1.2.0 (build 7)');
  const got = await detectCli(facts(), { PATH: bin });
  assert.equal(got, { installed: true, installHint: 'npm i -g @acme/tool', loginHint: 'tool login', path: join(bin, 'tool'), version: '1.2.0' });
});

// Before: every `baton agents` and every picker started each such CLI again (opencode takes
// a second or more to answer), so the second start was as slow as the first.
t('--version is asked once per build of the executable: the version is cached (0600, in BATON_HOME) until the file changes', async () => {
  const bin = join(dir, 'bin');
  const home = join(dir, 'baton-home');
  const env = { PATH: bin, BATON_HOME: home };
  script(join(bin, 'tool'), 'tool 3.1.4');
  assert.is((await detectCli(facts(), env)).version, '3.1.4');
  assert.ok(existsSync(join(dir, 'ran')), 'asked the first time');
  const cache = join(home, 'cache', 'versions.json');
  assert.is(statSync(cache).mode & 0o777, 0o600);
  assert.is(statSync(join(home, 'cache')).mode & 0o777, 0o700);
  assert.match(readFileSync(cache, 'utf8'), join(bin, 'tool'));

  rmSync(join(dir, 'ran'));
  assert.is((await detectCli(facts(), env)).version, '3.1.4');
  assert.not.ok(existsSync(join(dir, 'ran')), 'the same file is not started again');

  // An upgrade replaces the file: another size and modification time.
  script(join(bin, 'tool'), 'tool 3.2.0-beta');
  utimesSync(join(bin, 'tool'), new Date(), new Date(Date.now() + 5000));
  assert.is((await detectCli(facts(), env)).version, '3.2.0');
  assert.ok(existsSync(join(dir, 'ran')), 'a changed executable is asked again');

  // Another place for the cache, with no BATON_HOME: $XDG_CACHE_HOME/baton.
  const xdg = join(dir, 'xdg-cache');
  assert.is((await detectCli(facts(), { PATH: bin, XDG_CACHE_HOME: xdg })).version, '3.2.0');
  assert.ok(existsSync(join(xdg, 'baton', 'versions.json')));
});

t('a cache that cannot be read or written is passed by: the version is asked', async () => {
  const bin = join(dir, 'bin');
  script(join(bin, 'tool'), 'tool 2.0.1');
  const home = join(dir, 'baton-home');
  mkdirSync(join(home, 'cache'), { recursive: true });
  writeFileSync(join(home, 'cache', 'versions.json'), '{ not json');
  assert.is((await detectCli(facts(), { PATH: bin, BATON_HOME: home })).version, '2.0.1');
  // BATON_HOME a file: nothing can be written under it.
  const file = join(dir, 'a-file');
  writeFileSync(file, '');
  assert.is((await detectCli(facts(), { PATH: bin, BATON_HOME: file })).version, '2.0.1');
});

t.run();
