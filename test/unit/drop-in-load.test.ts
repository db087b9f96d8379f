// BATON_PLUGIN_LOAD_TIMEOUT: the per-file deadline for loading a drop-in (src/plugins/drop-in-load.ts).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { pluginLoadTimeout } from '../../src/plugins/drop-in-load.js';

const t = suite('drop-in-load');

t('unset or blank: 5 s; seconds, fractions allowed', () => {
  assert.equal(pluginLoadTimeout({}), { ms: 5000 });
  assert.equal(pluginLoadTimeout({ BATON_PLUGIN_LOAD_TIMEOUT: '  ' }), { ms: 5000 });
  assert.equal(pluginLoadTimeout({ BATON_PLUGIN_LOAD_TIMEOUT: '12' }), { ms: 12_000 });
  assert.equal(pluginLoadTimeout({ BATON_PLUGIN_LOAD_TIMEOUT: '0.5' }), { ms: 500 });
});

t('anything else is a problem naming the variable, and the default holds', () => {
  for (const raw of ['0', '-1', 'soon', '5s', 'Infinity', '1e3']) {
    const r = pluginLoadTimeout({ BATON_PLUGIN_LOAD_TIMEOUT: raw });
    assert.is(r.ms, 5000, raw);
    assert.is(r.problem?.path, 'BATON_PLUGIN_LOAD_TIMEOUT');
    assert.match(r.problem!.message, `expected a positive number of seconds, got "${raw}"; using 5 s`);
  }
});

t.run();
