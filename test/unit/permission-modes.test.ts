// `baton chat --mode` (issue 13 item 3) as each of the five drivers turns it into its CLI's
// own flags: Claude Code --permission-mode, codex exec's sandbox (and the plan instruction,
// codex exec having no plan mode), gemini's and qwen's --approval-mode, and opencode's
// permissions (plan emulated: every edit and command asked, so baton refuses it, and the
// plan instruction). full-access is --yes; default adds nothing.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { headlessArgs } from '../../plugins/claude/headless.js';
import { codexExecArgs } from '../../plugins/codex/headless.js';
import { geminiArgs } from '../../plugins/gemini/headless.js';
import { opencodeAcpDecl } from '../../plugins/opencode/headless.js';
import { qwenHeadlessArgs } from '../../plugins/qwen/headless.js';
import { PLAN_INSTRUCTION, turnMode, withPlanInstruction } from '../../src/plugins/plan-mode.js';
import type { PermissionMode } from '../../src/plugins/api.js';

const s = suite('permission modes');
const turn = (mode: PermissionMode | undefined, yes = false) => ({ yes, ...(mode ? { mode } : {}), env: {}, cwd: '/w', prompt: 'p' });

s('the mode a driver reads: given, or full access with --yes, else default', () => {
  assert.is(turnMode({ yes: false }), 'default');
  assert.is(turnMode({ yes: true }), 'full-access');
  assert.is(turnMode({ yes: false, mode: 'plan' }), 'plan');
  assert.ok(withPlanInstruction('do it').startsWith(`${PLAN_INSTRUCTION}\n\n`));
  assert.ok(withPlanInstruction('do it').endsWith('do it'));
});

s('claude: --permission-mode plan / acceptEdits; full access as --yes', () => {
  const perm = (mode: PermissionMode | undefined, yes = false) => {
    const a = headlessArgs(turn(mode, yes), false);
    const i = a.indexOf('--permission-mode');
    return i < 0 ? undefined : a[i + 1];
  };
  assert.is(perm(undefined), undefined);
  assert.is(perm('default'), undefined);
  assert.is(perm('plan'), 'plan');
  assert.is(perm('accept-edits'), 'acceptEdits');
  assert.is(perm('full-access'), 'bypassPermissions');
  assert.is(perm(undefined, true), 'bypassPermissions');
});

s('codex exec: plan is the read-only sandbox, accept-edits workspace-write, full access bypasses both', () => {
  assert.equal(codexExecArgs(turn('plan')), ['exec', '--json', '--skip-git-repo-check', '--sandbox', 'read-only', '-']);
  assert.equal(codexExecArgs(turn('accept-edits')), ['exec', '--json', '--skip-git-repo-check', '--sandbox', 'workspace-write', '-']);
  assert.equal(codexExecArgs(turn('full-access')), ['exec', '--json', '--skip-git-repo-check', '--dangerously-bypass-approvals-and-sandbox', '-']);
  assert.equal(codexExecArgs(turn('default')), ['exec', '--json', '--skip-git-repo-check', '-']);
});

s('gemini and qwen: their own --approval-mode (auto_edit and auto-edit, as each spells it), --yolo for full access', () => {
  assert.equal(geminiArgs(turn('plan')).argv.slice(0, 2), ['--approval-mode', 'plan']);
  assert.equal(geminiArgs(turn('accept-edits')).argv.slice(0, 2), ['--approval-mode', 'auto_edit']);
  assert.equal(geminiArgs(turn('full-access')).argv[0], '--yolo');
  assert.not.ok(geminiArgs(turn('default')).argv.includes('--approval-mode'));
  const q = (mode: PermissionMode) => qwenHeadlessArgs(turn(mode)).slice(2);
  assert.equal(q('plan'), ['--approval-mode', 'plan']);
  assert.equal(q('accept-edits'), ['--approval-mode', 'auto-edit']);
  assert.equal(q('full-access'), ['--yolo']);
  assert.equal(q('default'), []);
});

s('opencode (emulated): plan and default ask for every edit and command (baton refuses them), accept-edits allows edits, full access sets nothing', () => {
  const perm = (mode: PermissionMode) => {
    const v = opencodeAcpDecl(turn(mode)).decl.env?.OPENCODE_PERMISSION;
    return v === undefined ? undefined : (JSON.parse(v) as Record<string, string>);
  };
  assert.is(perm('plan')?.edit, 'ask');
  assert.is(perm('plan')?.bash, 'ask');
  assert.is(perm('default')?.edit, 'ask');
  assert.is(perm('accept-edits')?.edit, 'allow');
  assert.is(perm('accept-edits')?.bash, 'ask');
  assert.is(perm('full-access'), undefined);
});

s.run();
