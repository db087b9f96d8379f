// Tested-version ranges drivers state: comparators, wildcards, alternatives, and silence
// (undefined, no warning) when a version or range cannot be read.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { extractVersion, versionInRange } from '../../src/plugins/version-range.js';

const t = suite('version-range');

t('finds the version in what a CLI prints', () => {
  assert.is(extractVersion('codex-cli 0.171.0'), '0.171.0');
  assert.is(extractVersion('2.1.197 (Claude Code)'), '2.1.197');
  assert.is(extractVersion('v20.20.2'), '20.20.2');
  assert.is(extractVersion('goose 1.2'), '1.2');
  assert.is(extractVersion('no version'), undefined);
});

t('comparators must all hold; alternatives need one', () => {
  assert.is(versionInRange('codex-cli 0.171.0', '>=0.171.0 <0.172'), true);
  assert.is(versionInRange('0.172.1', '>=0.171.0 <0.172'), false);
  assert.is(versionInRange('0.170.9', '>=0.171.0 <0.172'), false);
  assert.is(versionInRange('2.1.198', '2.1.197 || 2.1.198'), true);
  assert.is(versionInRange('2.1.199', '2.1.197 || 2.1.198'), false);
  assert.is(versionInRange('v20.20.2', '>=20'), true);
  assert.is(versionInRange('1.0.0', '>1.0.0'), false);
  assert.is(versionInRange('1.0.0', '<=1.0.0'), true);
});

t('wildcards', () => {
  assert.is(versionInRange('1.18.33', '1.18.x'), true);
  assert.is(versionInRange('1.19.0', '1.18.x'), false);
  assert.is(versionInRange('0.16.2', '0.16.*'), true);
  assert.is(versionInRange('3.0.0', '3.x'), true);
});

t('unreadable versions or ranges give no answer rather than a false warning', () => {
  assert.is(versionInRange('no digits here', '>=1'), undefined);
  assert.is(versionInRange('1.0.0', 'whatever'), undefined);
  assert.is(versionInRange('1.0.0', 'whatever || >=2'), undefined);
  assert.is(versionInRange('2.5.0', 'whatever || >=2'), true);
});

t.run();
