// Each driver's reading of its CLI's own input box (plugins/<cli>/screen.ts inputDraft), on
// screens as the real CLIs draw them (captured in tmux at 120 columns, shortened): the box
// empty or showing its placeholder is '', a draft is its text, the history's echo of earlier
// messages above the box is not the box, and a screen without the box is undefined.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { claudeInputDraft } from '../../plugins/claude/screen.js';
import { codexInputDraft } from '../../plugins/codex/screen.js';
import { geminiInputDraft } from '../../plugins/gemini/screen.js';
import { opencodeInputDraft } from '../../plugins/opencode/screen.js';
import { qwenInputDraft } from '../../plugins/qwen/screen.js';

const RULE = '─'.repeat(60);
const s = suite('input draft');

s('claude: the last ❯ line between the rules; the history echo above is not the box', () => {
  const box = (...inBox: string[]) => [
    '  ▘▘ ▝▝    /tmp/work',
    '',
    '❯ ow earlier message',
    '',
    '● FAKE-LLM reply.',
    '',
    RULE,
    ...inBox,
    RULE,
    '  ? for shortcuts',
  ];
  assert.is(claudeInputDraft(box('❯ ')), '');
  assert.is(claudeInputDraft(box('❯\u00a0')), '');
  assert.is(claudeInputDraft(box('❯ ow QMARK-1 draft')), 'ow QMARK-1 draft');
  assert.is(claudeInputDraft(box('❯ first line', '  second line')), 'first line\nsecond line');
  assert.is(claudeInputDraft(box('❯ Try "refactor <filepath>"')), '');
  assert.is(claudeInputDraft(['nothing here', 'at all']), undefined);
});

s('codex: the last › line down to the blank over the footer; its placeholders are no text', () => {
  const box = (...inBox: string[]) => [
    '  >_ OpenAI Codex (v0.171.0)',
    '',
    '› ow earlier message',
    '',
    '• FAKE-LLM reply.',
    '',
    ...inBox,
    '',
    '  fake-model default · /tmp/work',
  ];
  assert.is(codexInputDraft(box('› Ask Codex to do anything')), '');
  assert.is(codexInputDraft(box('› Ask a follow-up question')), '');
  assert.is(codexInputDraft(box('› ow CMARK-1 draft')), 'ow CMARK-1 draft');
  assert.is(codexInputDraft(box('› one', '  two')), 'one\ntwo');
  assert.is(codexInputDraft(box('›')), '');
});

s('gemini: the last > line down to the box edge; the boxed echo of earlier messages is above it', () => {
  const top = '▄'.repeat(60);
  const bottom = '▀'.repeat(60);
  const box = (inBox: string) => [
    top,
    ' > ow earlier message',
    bottom,
    '✦ FAKE-LLM reply.',
    '',
    ' Shift+Tab to accept edits',
    top,
    inBox,
    bottom,
    ' workspace (/directory)',
  ];
  assert.is(geminiInputDraft(box(' >   Type your message or @path/to/file')), '');
  assert.is(geminiInputDraft(box(' > ow GMARK-1 draft')), 'ow GMARK-1 draft');
  assert.is(geminiInputDraft(['Tips for getting started:', '1. Create GEMINI.md files']), undefined);
  // Without colour its edges are blank rows.
  assert.is(geminiInputDraft([RULE, ' Shift+Tab to accept edits', '', ' > ow GMARK-1 draft', '', ' workspace (/directory)']), 'ow GMARK-1 draft');
});

s('qwen: the last > line between the rules; the indented echo above is not the box', () => {
  const box = (inBox: string) => ['  > ow earlier message', '', '  ✦ FAKE-LLM reply.', '', RULE, inBox, RULE, '  ? for shortcuts'];
  assert.is(qwenInputDraft(box('>   Type your message or @path/to/file')), '');
  assert.is(qwenInputDraft(box('> ow WMARK-1 draft')), 'ow WMARK-1 draft');
});

s("opencode: the ┃ lines over the box's lower edge, less the agent's line; earlier messages' ┃ blocks are not the box", () => {
  const edge = `  ╹${'▀'.repeat(60)}`;
  const box = (...inBox: string[]) => [
    '  ┃',
    '  ┃  ow earlier message',
    '  ┃',
    '',
    '     FAKE-LLM reply.',
    '',
    '  ┃',
    ...inBox,
    '  ┃',
    '  ┃  Build · Fake Model Fake',
    edge,
    '   /tmp/work   ctrl+p commands',
  ];
  assert.is(opencodeInputDraft(box('  ┃')), '');
  assert.is(opencodeInputDraft(box('  ┃  ow OMARK-1 draft')), 'ow OMARK-1 draft');
  assert.is(opencodeInputDraft(box('  ┃  Ask anything… "Fix a TODO in the codebase"')), '');
  assert.is(opencodeInputDraft(['no box', 'here']), undefined);
});

s.run();
