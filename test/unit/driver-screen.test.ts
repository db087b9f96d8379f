// Each driver's reading of its CLI's screen (plugins/<cli>/screen.ts), on screens captured
// from the real CLIs (test/fixtures/screens, 100x30): a dialog, a permission prompt or a
// question is `approval` — the user is needed there, and an Enter from baton would answer it
// (claude's folder-trust dialog read as idle, and a compose-bar Enter said "Yes, I trust this
// folder"); the CLI's input box alone is idle; its spinner is working.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { claudeStatusFromScreen } from '../../plugins/claude/screen.js';
import { codexStatusFromScreen } from '../../plugins/codex/screen.js';
import { geminiStatusFromScreen } from '../../plugins/gemini/screen.js';
import { qwenStatusFromScreen } from '../../plugins/qwen/screen.js';

const DIR = fileURLToPath(new URL('../fixtures/screens', import.meta.url));
const screen = (name: string) => readFileSync(join(DIR, `${name}.txt`), 'utf8').split('\n');

const READERS = {
  claude: claudeStatusFromScreen,
  codex: codexStatusFromScreen,
  gemini: geminiStatusFromScreen,
  qwen: qwenStatusFromScreen,
} as const;

const EXPECTED: [keyof typeof READERS, string, string][] = [
  ['claude', 'trust-dialog', 'approval'],
  ['claude', 'api-key-dialog', 'approval'],
  ['claude', 'question', 'approval'],
  ['claude', 'shell-approval', 'approval'],
  ['claude', 'working', 'working'],
  ['claude', 'idle', 'idle'],
  ['gemini', 'trust-dialog', 'approval'],
  ['gemini', 'shell-approval', 'approval'],
  ['gemini', 'working', 'working'],
  ['gemini', 'idle', 'idle'],
  // Its history keeps "ℹ Initializing... Prompts will be queued." (a prompt typed before it was
  // ready): no spinner, the input box waiting.
  ['gemini', 'idle-after-queued-prompt', 'idle'],
  // Its input box, drawn before it has initialised (what is submitted now gemini only queues):
  // nothing above it yet, no verdict (140x40, from tui-send-at-start).
  ['gemini', 'starting', 'undefined'],
  ['qwen', 'trust-dialog', 'approval'],
  ['qwen', 'shell-approval', 'approval'],
  ['qwen', 'working', 'working'],
  ['qwen', 'idle', 'idle'],
  ['codex', 'trust-dialog', 'approval'],
  // The choice /new opens, typed in the pane (120x40): an Enter from baton would pick "Use current Git worktree".
  ['codex', 'new-conversation-dialog', 'approval'],
  ['codex', 'working', 'working'],
  ['codex', 'idle', 'idle'],
];

const s = suite('driver-screen');

for (const [cli, name, want] of EXPECTED) {
  s(`${cli}: ${name} reads as ${want}`, () => {
    assert.is(String(READERS[cli](screen(`${cli}-${name}`))), want);
  });
}

s('a blank screen (a CLI still starting) says nothing', () => {
  for (const read of Object.values(READERS)) assert.is(read(['', '', '']), undefined);
});

s.run();
