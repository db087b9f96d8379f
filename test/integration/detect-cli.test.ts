// detect() of a built-in driver from its facts, against real executables on a PATH of a
// temp dir: not installed; the version read from the npm package the resolved executable
// belongs to (through a .bin link, at or above bin/) without starting it; `--version` asked
// when there is no such package. (Whether a version is inside the tested range is the
// registry's verdict: test/unit/normalize-driver.test.ts.)
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { detectCli, npmPackageVersion, type CliFacts } from '../../src/plugins/detect-cli.js';

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

t.run();
