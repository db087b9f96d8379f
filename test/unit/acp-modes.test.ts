// baton's permission modes over ACP (src/plugins/acp-modes.ts): each mode found among the modes
// Gemini CLI 0.61, Qwen Code and claude-code-acp 0.16 advertise (their session/new answers, as
// seen against the fake LLM), none in an agent without modes (opencode: emulated); what baton
// answers itself in plan (every change refused, native or not) and where it emulates
// accept-edits and full-access; Shift-Tab's order; Shift-Tab read as its own key.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { RequestPermissionRequest } from '../../src/plugins/acp-client.js';
import { autoAnswer, batonModeOf, modeLabel, nativeModeId, nextMode } from '../../src/plugins/acp-modes.js';
import { KeyReader } from '../../src/tui/acp-view-keys.js';

const s = suite('acp modes');
const ids = (...list: string[]) => list.map((id) => ({ id }));
const GEMINI = ids('default', 'autoEdit', 'yolo', 'plan');
const QWEN = ids('plan', 'default', 'auto-edit', 'yolo');
const CLAUDE_ACP = ids('default', 'acceptEdits', 'plan', 'dontAsk', 'bypassPermissions');

s("each of baton's modes is the agent's own where it has one", () => {
  assert.equal(
    (['default', 'accept-edits', 'plan', 'full-access'] as const).map((m) => [nativeModeId(GEMINI, m), nativeModeId(QWEN, m), nativeModeId(CLAUDE_ACP, m)]),
    [
      ['default', 'default', 'default'],
      ['autoEdit', 'auto-edit', 'acceptEdits'],
      ['plan', 'plan', 'plan'],
      ['yolo', 'yolo', 'bypassPermissions'],
    ],
  );
  assert.is(nativeModeId(undefined, 'plan'), undefined);
  assert.is(nativeModeId(ids('build'), 'plan'), undefined);
  assert.is(batonModeOf('acceptEdits'), 'accept-edits');
  assert.is(batonModeOf('dontAsk'), undefined);
});

const request = (kind: string | undefined): RequestPermissionRequest =>
  ({
    sessionId: 's',
    toolCall: { toolCallId: 't', title: 'x', ...(kind ? { kind } : {}) },
    options: [
      { optionId: 'yes', name: 'Allow', kind: 'allow_once' },
      { optionId: 'no', name: 'Reject', kind: 'reject_once' },
    ],
  }) as RequestPermissionRequest;

s('plan refuses every change, native or emulated; reads still ask', () => {
  for (const kind of ['edit', 'delete', 'move', 'execute', 'other', undefined]) {
    assert.is(autoAnswer(request(kind), 'plan', false)?.optionId, 'no', String(kind));
    assert.is(autoAnswer(request(kind), 'plan', true)?.optionId, 'no', String(kind));
  }
  assert.is(autoAnswer(request('read'), 'plan', true), undefined);
  assert.is(autoAnswer(request('switch_mode'), 'plan', false), undefined);
  const noReject = { ...request('edit'), options: [{ optionId: 'yes', name: 'Allow', kind: 'allow_once' }] } as RequestPermissionRequest;
  assert.equal(autoAnswer(noReject, 'plan', false), { optionId: undefined, why: 'plan mode: baton refused it' });
});

s('emulated accept-edits allows edits only; emulated full-access allows all; native modes leave it to the agent', () => {
  assert.is(autoAnswer(request('edit'), 'accept-edits', true)?.optionId, 'yes');
  assert.is(autoAnswer(request('execute'), 'accept-edits', true), undefined);
  assert.is(autoAnswer(request('execute'), 'full-access', true)?.optionId, 'yes');
  assert.is(autoAnswer(request('edit'), 'accept-edits', false), undefined);
  assert.is(autoAnswer(request('edit'), 'default', true), undefined);
});

s("Shift-Tab's order; full-access only when offered; labels", () => {
  assert.equal([nextMode('default', false), nextMode('accept-edits', false), nextMode('plan', false)], ['accept-edits', 'plan', 'default']);
  assert.equal([nextMode('plan', true), nextMode('full-access', true)], ['full-access', 'default']);
  assert.equal([modeLabel('plan', true), modeLabel('plan', false), modeLabel('default', true)], ['plan (emulated)', 'plan', 'default']);
});

s('the view reads Shift-Tab as its own key, not as text or Escape', () => {
  assert.equal(new KeyReader().read('a\x1b[Zb'), [{ k: 'text', text: 'a' }, { k: 'backtab' }, { k: 'text', text: 'b' }]);
});

s.run();
