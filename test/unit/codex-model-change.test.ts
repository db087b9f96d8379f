// What the codex driver's in-place model change reads (plugins/codex/model-change.ts): the
// rollout record codex 0.171.0 appends when `/model <name>` takes (captured against the fake
// LLM, its thread_settings cut to the fields that matter here), the prompt line that must hold
// the typed command before the Enter, and codex's answer for a name outside its catalog (as it
// showed on screen). The real change is in test/real/tui-model.test.ts.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { appliedModel, promptHolds, unavailableCount } from '../../plugins/codex/model-change.js';

const APPLIED =
  '{"timestamp":"2026-12-02T01:42:18.010Z","ordinal":14,"type":"event_msg","payload":{"type":"thread_settings_applied","thread_id":"01a2346a-57ab-7871-9162-a93b5f9036c2","thread_settings":{"model":"gpt-6-luna","model_provider_id":"fake","service_tier":"priority","reasoning_effort":"medium"}}}';

const s = suite('codex in-place model change');

s('the thread_settings_applied record naming the model confirms it; another model, or the next turn_context, does not', () => {
  assert.ok(appliedModel(APPLIED, 'gpt-6-luna'));
  assert.not.ok(appliedModel(APPLIED, 'gpt-6-sol'));
  assert.not.ok(appliedModel('{"type":"turn_context","payload":{"model":"gpt-6-luna"}}', 'gpt-6-luna'));
  assert.not.ok(appliedModel('{"type":"event_msg","payload":{"type":"thread_settings_applied"', 'gpt-6-luna'), 'a line still being written');
});

s("the prompt holds the command only when it is the composer's whole text", () => {
  const screen = ['• FAKE-LLM reply. You said: hello', '', '› /model gpt-6-luna', '', '  fake-model default · /tmp/work'];
  assert.ok(promptHolds(screen, '/model gpt-6-luna'));
  assert.not.ok(promptHolds(['› a draft/model gpt-6-luna'], '/model gpt-6-luna'), 'typed into a draft');
  assert.not.ok(promptHolds(['› /model  choose what model and reasoning effort to use'], '/model gpt-6-luna'));
});

s("codex's answer for a name it does not list is counted per name", () => {
  const screen = [
    "■ Model 'totally-custom-x1' is unavailable. Use /model to see available models.",
    '• Model changed to gpt-6-sol medium for this session only',
  ];
  assert.is(unavailableCount(screen, 'totally-custom-x1'), 1);
  assert.is(unavailableCount(screen, 'gpt-6-sol'), 0);
});

s.run();
