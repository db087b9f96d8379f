// The fork, reset, undo and worktree-removal questions: what they say will happen and which
// answers they offer, in each case the TUI meets; the notice of a tab a reset stopped; the
// note that worktrees outlive a quit; and a real worktree blocker's refusal (a directory
// that is no git repository, a detached HEAD) said in the TUI's terms while the CLI keeps
// its own (e2e: test/real/tui-fork.test.ts).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { worktreeForkBlocker } from '../../src/conversation/fork-worktree.js';
import { BatonError, EXIT } from '../../src/errors.js';
import { createConversation } from '../../src/transcript/store.js';
import {
  TAB_FORK_WAY,
  forceRemoveQuestion,
  forkQuestion,
  removeWorktreeQuestion,
  resetNotice,
  resetQuestion,
  restoreRefusedQuestion,
  tabInsteadQuestion,
  undoResetQuestion,
  worktreeRefusal,
  worktreesStayNote,
} from '../../src/tui/fork-dialog.js';

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
  const q = forkQuestion({
    seq: 3,
    entry: 'x',
    agentTitle: 'Claude Code',
    otherAgents: false,
    worktreeBlocked: { message: '/tmp/p is not a git repository', hint: 'fork into a tab instead' },
  });
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
  assert.match(q.text, /u in this view brings them back/);
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
  const q = restoreRefusedQuestion({
    message: 'the working tree in /r has changes that no checkpoint holds; restoring would lose them',
    hint: 'Commit or checkpoint them first, or restore with force to discard them.',
  });
  assert.match(q.text, /^The files were not restored and nothing was reset\.\nThe working tree in \/r has changes/);
  assert.equal(
    q.options.map((o) => o.value),
    ['reset', 'force'],
  );
  assert.is(q.enterTakes, undefined);
});

const remove = suite('removeWorktreeQuestion');

remove('names the worktree and branch; Enter and Esc keep; the conversation stays', () => {
  const q = removeWorktreeQuestion({ path: '/r-fork', branch: 'baton/fork', conversationId: 'f1' });
  assert.match(q.text, /\n {2}\/r-fork\n {2}branch baton\/fork\n/);
  assert.match(q.text, /The conversation stays:\nbaton transcript show f1/);
  assert.equal(
    q.options.map((o) => o.value),
    ['keep', 'remove'],
  );
  assert.is(q.enterTakes, 'keep');
  assert.is(q.escape, 'keep');
});

remove('a dirty worktree: the reason, keep by default, force only on its own key', () => {
  const q = forceRemoveQuestion({ message: 'the worktree /r-fork has uncommitted changes', hint: 'Commit or discard them, or remove it with force.' });
  assert.match(q.text, /Nothing was removed\.\nThe worktree \/r-fork has uncommitted changes\./);
  assert.equal(keys(q), ['k', 'f']);
  assert.is(q.enterTakes, 'keep');
});

const blocked = suite('worktree refusals in the TUI');
let tmp = '';
blocked.before(() => {
  tmp = mkdtempSync(join(tmpdir(), 'baton-fork-dialog-'));
});
blocked.after(() => rmSync(tmp, { recursive: true, force: true }));

async function conversationIn(cwd: string) {
  const conv = await createConversation(join(tmp, 'home'), { cwd, title: 't', user: { type: 'user', name: 'me', device: 'd' } });
  conv.transcript.apply({ type: 'user_text', text: 'hello' });
  conv.transcript.apply({ type: 'agent_text', text: 'hi' });
  conv.transcript.flush();
  return conv;
}

blocked("not a git repository: the CLI's hint gives the command, the dialog says press t", async () => {
  const dir = join(tmp, 'plain');
  mkdirSync(dir);
  const conv = await conversationIn(dir);
  try {
    const seq = conv.transcript.lastSeq;
    const err = await worktreeForkBlocker(conv, seq, {});
    assert.ok(err, 'refused');
    assert.match(err!.hint ?? '', new RegExp(`baton fork ${conv.id} --at ${seq}`), 'the CLI keeps its wording');
    const r = worktreeRefusal(err!, conv.id, seq);
    assert.is(r.message, err!.message, "the message is the blocker's");
    assert.is(r.hint, TAB_FORK_WAY);
    const q = forkQuestion({ seq, entry: 'x', agentTitle: 'Claude Code', otherAgents: false, worktreeBlocked: r });
    assert.match(q.text, /not a git repository/);
    assert.match(q.text, /press t to fork into a tab instead \(same directory, no git needed\)/);
    assert.not.match(q.text, /baton fork/);
    assert.equal(keys(q), ['t']);
  } finally {
    await conv.close();
  }
});

blocked('a detached HEAD: the rest of the hint stays, only the way on changes', async () => {
  const repo = join(tmp, 'detached');
  mkdirSync(repo);
  const git = (...a: string[]) => execFileSync('git', ['-C', repo, ...a], { stdio: 'pipe' });
  git('init', '-q', '-b', 'main');
  writeFileSync(join(repo, 'a.txt'), 'a\n');
  git('add', '.');
  git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'one');
  git('checkout', '-q', '--detach');
  const conv = await conversationIn(repo);
  try {
    const seq = conv.transcript.lastSeq;
    const err = await worktreeForkBlocker(conv, seq, {});
    assert.ok(err, 'refused');
    const r = worktreeRefusal(err!, conv.id, seq);
    assert.match(r.hint ?? '', /^switch to a branch first .* then fork again; or press t to fork into a tab instead/);
    assert.not.match(r.hint ?? '', /baton fork/);
    assert.match(tabInsteadQuestion(seq, r).text, /or press t to fork into a tab instead/);
  } finally {
    await conv.close();
  }
});

blocked('a hint without the tab-fork way, or none, passes unchanged', () => {
  assert.equal(worktreeRefusal(new BatonError('x', EXIT.alreadyExists, 'pick another --name'), 'id', 1), { message: 'x', hint: 'pick another --name' });
  assert.equal(worktreeRefusal(new BatonError('y', EXIT.badInput), 'id', 1), { message: 'y' });
});

const notice = suite('resetNotice');

notice('what the reset did, what the next message does, how to undo it from the TUI (and the CLI once the tab is closed)', () => {
  const lines = resetNotice({ seq: 8, conversationId: 'abc', hidden: 4, restored: true, stoppedTitle: 'Claude Code', prefix: 'C-b' });
  const text = lines.join('\n');
  assert.is(lines[0], 'baton · conversation abc reset to #8');
  assert.match(text, /4 entries after #8 are hidden, not deleted; the files are back as they were after #8\./);
  assert.match(text, /Claude Code was stopped: its own session still remembered what is hidden\./);
  assert.match(text, /Your next message starts Claude Code afresh, with the conversation up to #8 as a replay/);
  assert.match(text, /C-b m {3}write the next message/);
  assert.match(text, /C-b t {3}the transcript: u there undoes the reset/);
  assert.match(text, /baton reset abc --undo does the same once this tab is closed/);
});

notice('another agent armed since: the next message starts that one; one entry, files kept', () => {
  const text = resetNotice({
    seq: 3,
    conversationId: 'abc',
    hidden: 1,
    restored: false,
    stoppedTitle: 'Claude Code',
    nextTitle: 'Codex CLI',
    prefix: 'C-a',
  }).join('\n');
  assert.match(text, /1 entry after #3 is hidden, not deleted; the files stay as they are\./);
  assert.match(text, /starts Codex CLI afresh/);
  assert.match(text, /C-a m/);
});

notice('undone: the entries are back, the agent is still stopped, no undo offered', () => {
  const text = resetNotice({ seq: 8, conversationId: 'abc', hidden: 0, restored: false, stoppedTitle: 'Claude Code', undone: true, prefix: 'C-b' }).join('\n');
  assert.match(text, /the reset to #8 was undone: the entries after it are back/);
  assert.match(text, /Claude Code is still stopped\. Your next message starts Claude Code again/);
  assert.not.match(text, /undoes|--undo/);
});

notice('the undo question: how many come back, files untouched, a running agent is stopped', () => {
  const q = undoResetQuestion({ toSeq: 8, back: 3, runningTitle: 'Claude Code' });
  assert.is(q.title, 'Undo the reset to #8');
  assert.match(q.text, /The 3 entries hidden by the reset to #8 come back\. The files stay as they are\./);
  assert.match(q.text, /Claude Code is stopped/);
  assert.equal(keys(q), ['u']);
  assert.is(q.enterTakes, undefined);
  assert.not.match(undoResetQuestion({ toSeq: 2, back: 1 }).text, /stopped/);
});

notice('quitting with worktree forks open: they stay, and the commands that manage them', () => {
  assert.is(worktreesStayNote([]), undefined);
  assert.is(
    worktreesStayNote([{ conversationId: 'f1', path: '/r-f1', branch: 'baton/f1' }]),
    'The worktree of the fork f1 (baton/f1) stays: baton worktree list shows it, baton worktree remove f1 removes it.',
  );
  assert.match(
    worktreesStayNote([
      { conversationId: 'f1', path: '/a', branch: 'baton/f1' },
      { conversationId: 'f2', path: '/b', branch: 'baton/f2' },
    ])!,
    /^The worktrees of 2 forks stay \(baton\/f1, baton\/f2\): baton worktree list/,
  );
});

fork.run();
reset.run();
remove.run();
blocked.run();
notice.run();
