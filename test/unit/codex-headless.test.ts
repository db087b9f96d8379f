// The argv of a headless codex turn: exec-level options before `resume`/`fork` (codex
// applies them to that thread), the prompt never in argv (always `-`, read from stdin).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { codexExecArgs } from '../../plugins/codex/headless.js';

const t = suite('codex-headless');

t('a fresh turn: exec --json, options, then - for stdin', () => {
  assert.equal(codexExecArgs({ yes: false }), ['exec', '--json', '--skip-git-repo-check', '-']);
  assert.equal(codexExecArgs({ yes: true, model: 'gpt-x', args: ['-c', 'a=1'] }), [
    'exec',
    '--json',
    '--skip-git-repo-check',
    '--dangerously-bypass-approvals-and-sandbox',
    '-m',
    'gpt-x',
    '-c',
    'a=1',
    '-',
  ]);
});

t('resume and fork name the thread after the exec-level options', () => {
  assert.equal(codexExecArgs({ yes: false, model: 'm', resume: 'T1' }), ['exec', '--json', '--skip-git-repo-check', '-m', 'm', 'resume', 'T1', '-']);
  assert.equal(codexExecArgs({ yes: false, model: 'm', resume: 'T1', fork: true }), ['exec', '--json', '--skip-git-repo-check', '-m', 'm', 'fork', 'T1', '-']);
  assert.equal(codexExecArgs({ yes: false, fork: true }), ['exec', '--json', '--skip-git-repo-check', '-'], 'fork without resume is no fork');
});

t.run();
