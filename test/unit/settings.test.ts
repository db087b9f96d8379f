// The brief budget setting: default, clamping with a warning, and a non-number as exit 2.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { BatonError, EXIT } from '../../src/errors.js';
import { BRIEF_MAX_CHARS_DEFAULT, BRIEF_MAX_CHARS_MAX, BRIEF_MAX_CHARS_MIN, briefMaxCharsFromEnv, parseBriefMaxChars } from '../../src/transcript/settings.js';

const t = suite('brief budget setting');

t('unset or empty means the default, 120000', () => {
  assert.equal(briefMaxCharsFromEnv({}), { maxChars: 120000 });
  assert.equal(briefMaxCharsFromEnv({ BATON_BRIEF_MAX_CHARS: '  ' }), { maxChars: BRIEF_MAX_CHARS_DEFAULT });
  assert.equal(parseBriefMaxChars(undefined), { maxChars: 120000 });
});

t('a whole number in range is taken as is, from text or a number', () => {
  assert.equal(briefMaxCharsFromEnv({ BATON_BRIEF_MAX_CHARS: '50000' }), { maxChars: 50000 });
  assert.equal(briefMaxCharsFromEnv({ BATON_BRIEF_MAX_CHARS: ' 1024 ' }), { maxChars: 1024 });
  assert.equal(parseBriefMaxChars(200000, '--max-chars'), { maxChars: 200000 });
});

t('values outside 1024..200000 are clamped, with a warning naming the source', () => {
  const low = briefMaxCharsFromEnv({ BATON_BRIEF_MAX_CHARS: '500' });
  assert.is(low.maxChars, BRIEF_MAX_CHARS_MIN);
  assert.match(low.warning!, /BATON_BRIEF_MAX_CHARS=500 is below the minimum 1024/);
  const high = parseBriefMaxChars('999999', '--max-chars');
  assert.is(high.maxChars, BRIEF_MAX_CHARS_MAX);
  assert.match(high.warning!, /--max-chars=999999 is above the maximum 200000/);
  assert.is(parseBriefMaxChars('-5').maxChars, 1024);
  assert.is(parseBriefMaxChars('0').maxChars, 1024);
});

t('anything that is not a whole number is a BatonError with exit code 2 and a hint', () => {
  for (const raw of ['abc', '12k', '1e5', '5000.5', 'Infinity', '0x400', '120_000']) {
    try {
      briefMaxCharsFromEnv({ BATON_BRIEF_MAX_CHARS: raw });
      assert.unreachable(raw);
    } catch (e) {
      assert.instance(e, BatonError, raw);
      const err = e as BatonError;
      assert.is(err.exitCode, EXIT.badInput);
      assert.match(err.message, /BATON_BRIEF_MAX_CHARS must be a whole number/);
      assert.match(err.hint!, /1024 and 200000/);
    }
  }
  assert.throws(
    () => parseBriefMaxChars(12.5, '--max-chars'),
    (e: unknown) => e instanceof BatonError && /--max-chars/.test(e.message),
  );
});

t.run();
