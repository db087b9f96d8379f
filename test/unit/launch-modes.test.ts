// The permission mode a tab's CLI starts in (LaunchOptions.mode, issue 13 item 3): each CLI's
// own launch flags, as its headless turn takes them (Claude Code --permission-mode, Gemini CLI
// and Qwen Code --approval-mode, codex's sandbox with no approvals in plan, so an escalation
// cannot be approved into a write); no flag for the default; the view passes --mode to its
// program. A driver without launchModes (opencode's TUI) is refused a mode by the launch path
// (test/unit/tab-launch-mode.test.ts). A registry default mode is one of the four names.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { claudeLaunch, claudeModeArgs } from '../../plugins/claude/launch.js';
import { codexLaunch } from '../../plugins/codex/launch.js';
import { geminiLaunch } from '../../plugins/gemini/launch.js';
import { qwenLaunch } from '../../plugins/qwen/launch.js';
import type { PermissionMode } from '../../src/plugins/api.js';
import { readRegistryConfig } from '../../src/plugins/validate.js';

const s = suite('launch modes');
const base = { cwd: '/w', env: {} };
const after = (args: string[], flag: string) => args[args.indexOf(flag) + 1];

s('Claude Code: --permission-mode; bypassPermissions as root only with IS_SANDBOX', () => {
  assert.is(after(claudeLaunch({ ...base, mode: 'plan' }).args, '--permission-mode'), 'plan');
  assert.is(after(claudeLaunch({ ...base, mode: 'plan' }).args, '--disallowedTools'), 'Write,Edit,MultiEdit,NotebookEdit,Bash');
  assert.is(after(claudeLaunch({ ...base, mode: 'accept-edits' }).args, '--permission-mode'), 'acceptEdits');
  assert.not.ok(claudeLaunch({ ...base, mode: 'default' }).args.includes('--permission-mode'));
  assert.equal(claudeModeArgs('full-access', {}, false), ['--permission-mode', 'bypassPermissions']);
  assert.equal(claudeModeArgs('full-access', { IS_SANDBOX: '1' }, true), ['--permission-mode', 'bypassPermissions']);
  assert.is(claudeModeArgs('full-access', {}, true)[0], '--allowedTools');
});

s('Gemini CLI and Qwen Code: their own --approval-mode names', () => {
  const modes: PermissionMode[] = ['plan', 'accept-edits', 'full-access'];
  assert.equal(
    modes.map((mode) => after(geminiLaunch({ ...base, mode }).args, '--approval-mode')),
    ['plan', 'auto_edit', 'yolo'],
  );
  assert.equal(
    modes.map((mode) => after(qwenLaunch({ ...base, mode }).args, '--approval-mode')),
    ['plan', 'auto-edit', 'yolo'],
  );
  assert.not.ok(geminiLaunch({ ...base, mode: 'default' }).args.includes('--approval-mode'));
  assert.not.ok(qwenLaunch(base).args.includes('--approval-mode'));
});

s('codex: plan is a read-only sandbox that asks nothing; accept-edits workspace-write', () => {
  const plan = codexLaunch({ ...base, mode: 'plan' }).args;
  assert.is(after(plan, '--sandbox'), 'read-only');
  assert.is(after(plan, '--ask-for-approval'), 'never');
  assert.is(after(codexLaunch({ ...base, mode: 'accept-edits' }).args, '--sandbox'), 'workspace-write');
  assert.ok(codexLaunch({ ...base, mode: 'full-access' }).args.includes('--dangerously-bypass-approvals-and-sandbox'));
  assert.not.ok(codexLaunch(base).args.includes('--sandbox'));
});

s("harness-registry.json's defaults.<driver>.mode: one of the four, else a problem naming the field", () => {
  const { config, problems } = readRegistryConfig({ defaults: { claude: { mode: 'plan' }, qwen: { mode: 'yolo' } } });
  assert.is(config.defaults.claude?.mode, 'plan');
  assert.is(config.defaults.qwen, undefined);
  assert.equal(problems, ['defaults.qwen.mode: expected one of default, accept-edits, plan, full-access, got "yolo"']);
});

s.run();
