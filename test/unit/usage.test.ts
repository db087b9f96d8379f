// Adding up a turn's token usage from its messages: key by key, counts nobody reported
// stay absent, an absent side changes nothing, and the sum is a new object.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { addUsage } from '../../src/plugins/usage.js';

const t = suite('usage');

t('key by key; a count only one side has is carried; none reported stays absent', () => {
  assert.equal(addUsage({ inputTokens: 10, outputTokens: 2 }, { inputTokens: 5, outputTokens: 1, cachedInputTokens: 4 }), {
    inputTokens: 15,
    outputTokens: 3,
    cachedInputTokens: 4,
  });
  assert.equal(addUsage({ reasoningTokens: 7 }, { inputTokens: 1 }), { inputTokens: 1, reasoningTokens: 7 });
});

t('an absent side: the other as it is (a copy), undefined for both', () => {
  const b = { inputTokens: 3, outputTokens: 1 };
  const sum = addUsage(undefined, b)!;
  assert.equal(sum, b);
  assert.is.not(sum, b);
  assert.is(addUsage(b, undefined), b);
  assert.is(addUsage(undefined, undefined), undefined);
});

t.run();
