// The fork, reset and worktree-removal questions: what they say will happen and which
// answers they offer, in each case the TUI meets (e2e: test/e2e/tui-fork.test.ts).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { forceRemoveQuestion, forkQuestion, removeWorktreeQuestion, resetQuestion, restoreRefusedQuestion, tabInsteadQuestion } from '../src/tui/fork-dialog.js';

const keys = (q: { options: { key: string }[] }) => q.options.map((o) => o.key);

const fork = suite('forkQuestion');

fork('offers a tab and a worktree, says who continues and that the source stays', () => {
  const q = forkQuestion({ seq: 8, entry: 'Claude Code (default) hello', agentTitle: 'Claude Code', otherAgents: false });
  assert.is(q.title, 'Fork at #8');
  assert.equal(keys(q), ['t', 'w']);
  assert.match(q.text, /^At #8: Claude Code \(default\) hello/);
  assert.match(q.text, /up to #8, continued by Claude Code/);
  assert.match(q.text, /this conversation stays as it is/);
  assert.is(q.enterTakes, undefined, 'Enter never forks');
});

fork('another agent is offered only when there is one', () => {
  assert.equal(keys(forkQuestion({ seq: 2, entry: 'x', agentTitle: 'Codex CLI', otherAgents: true })), ['t', 'w', 'a']);
});

fork('a worktree fork known to be refused is not offered; the reason and hint are shown', () => {
  const q = forkQuestion({ seq: 3, entry: 'x', agentTitle: 'Claude Code', otherAgents: false, worktreeBlocked: { message: '/tmp/p is not a git repository', hint: 'fork into a tab instead' } });
  assert.equal(keys(q), ['t']);
  assert.match(q.text, /No worktree fork here:\n\/tmp\/p is not a git repository\.\nfork into a tab instead/);
});

fork('after a refused worktree fork: the reason, and a tab fork at the same entry', () => {
  const q = tabInsteadQuestion(5, { message: 'HEAD is detached in /r', hint: 'check out a branch' });
  assert.equal(keys(q), ['t']);
  assert.match(q.text, /nothing was made/);
  assert.match(q.text, /HEAD is detached in \/r\.\ncheck out a branch/);
  assert.match(q.options[0]!.label, /fork at #5 into a new tab instead/);
});

const reset = suite('resetQuestion');

reset('says how many entries are hidden, how to undo, that the agent restarts afresh; offers the files back when a checkpoint holds them', () => {
  const q = resetQuestion({ seq: 4, entry: 'you: hi', conversationId: 'abc', hidden: 3, agentTitle: 'Claude Code', canRestore: true });
  assert.is(q.title, 'Reset to #4');
  assert.match(q.text, /The 3 entries after it are hidden, not deleted:/);
  assert.match(q.text, /baton reset abc --undo brings them back\./);
  assert.match(q.text, /Claude Code is stopped .*\n.*starts it afresh with the conversation up to #4/);
  assert.equal(keys(q), ['r', 'c']);
  assert.is(q.enterTakes, undefined, 'Enter never resets');
});

reset('one entry, no agent, no checkpoint: said so, and no restore offered', () => {
  const q = resetQuestion({ seq: 9, entry: 'x', conversationId: 'abc', hidden: 1, canRestore: false });
  assert.match(q.text, /The 1 entry after it is hidden/);
  assert.match(q.text, /brings it back/);
  assert.not.match(q.text, /stopped/);
  assert.match(q.text, /No checkpoint holds the files as they were after #9: they stay as they are\./);
  assert.equal(keys(q), ['r']);
});

reset('a refused restore: nothing happened yet; reset without the files, or force', () => {
  const q = restoreRefusedQuestion({ message: 'the working tree in /r has changes that no checkpoint holds; restoring would lose them', hint: 'Commit or checkpoint them first, or restore with force to discard them.' });
  assert.match(q.text, /^The files were not restored and nothing was reset\.\nThe working tree in \/r has changes/);
  assert.equal(q.options.map((o) => o.value), ['reset', 'force']);
  assert.is(q.enterTakes, undefined);
});

const remove = suite('removeWorktreeQuestion');

remove('names the worktree and branch; Enter and Esc keep; the conversation stays', () => {
  const q = removeWorktreeQuestion({ path: '/r-fork', branch: 'baton/fork', conversationId: 'f1' });
  assert.match(q.text, /\/r-fork\n\(branch baton\/fork\)/);
  assert.match(q.text, /The conversation stays: baton transcript show f1/);
  assert.equal(q.options.map((o) => o.value), ['keep', 'remove']);
  assert.is(q.enterTakes, 'keep');
  assert.is(q.escape, 'keep');
});

remove('a dirty worktree: the reason, keep by default, force only on its own key', () => {
  const q = forceRemoveQuestion({ message: 'the worktree /r-fork has uncommitted changes', hint: 'Commit or discard them, or remove it with force.' });
  assert.match(q.text, /Nothing was removed\.\nThe worktree \/r-fork has uncommitted changes\./);
  assert.equal(keys(q), ['k', 'f']);
  assert.is(q.enterTakes, 'keep');
});

fork.run();
reset.run();
remove.run();
