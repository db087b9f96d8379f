import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { BRANCH_MARK, FORK_MARK, escapeTags, formatStatusLine, formatTabBar, tabKey } from '../../src/tui/tab-bar.js';

const s = suite('tab-bar');
const plain = (tagged: string) => tagged.replace(/\{\/?[a-z-]+\}/g, '');

s('each tab shows its key, title, agent·model and status; the active one is highlighted', () => {
  const bar = formatTabBar(
    [
      { label: 'fix tests', agent: 'claude', model: 'sonnet', status: 'working' },
      { label: 'sh', agent: 'shell', status: 'exited' },
    ],
    0,
    100,
  );
  assert.is(plain(bar), ' 1:fix tests claude·sonnet working  2:sh shell exited ');
  assert.match(bar, /^\{inverse\}\{bold\} 1:fix tests/);
});

s('a title that names the agent does not name it again, and the default model is not shown', () => {
  const bar = plain(
    formatTabBar(
      [
        { label: 'Claude Code', agent: 'claude', model: 'default', status: 'idle' },
        { label: 'Codex CLI', agent: 'codex', model: 'gpt-5', status: 'working' },
        { label: 'Qwen Code (baton view)', agent: 'qwen-view', status: 'idle' },
      ],
      0,
      120,
    ),
  );
  assert.is(bar, ' 1:Claude Code idle  2:Codex CLI·gpt-5 working  3:Qwen Code (baton view) idle ');
});

s('a tab whose turn ended while it was not in view says done (marked) while idle; working again, or shown, it says its status', () => {
  const tabs = [
    { label: 'Claude Code', agent: 'claude', status: 'idle' },
    { label: 'Gemini CLI', agent: 'gemini', status: 'idle', unseen: 'done' as const },
    { label: 'Codex CLI', agent: 'codex', status: 'working', unseen: 'done' as const },
  ];
  const bar = formatTabBar(tabs, 0, 100);
  assert.is(plain(bar), ' 1:Claude Code idle  2:Gemini CLI done  3:Codex CLI working ');
  assert.match(bar, /\{green-fg\}\{bold\} 2:Gemini CLI done \{\/bold\}\{\/green-fg\}/);
});

s("a fork says so: the entry it was forked at, and its worktree's branch without the baton/ prefix", () => {
  const bar = plain(
    formatTabBar(
      [
        { label: 'Claude Code', agent: 'claude', status: 'idle' },
        { label: 'Claude Code', agent: 'claude', status: 'idle', fork: { at: 8 } },
        { label: 'Claude Code', agent: 'claude', status: 'working', fork: { at: 3, branch: 'baton/try-codex' } },
      ],
      0,
      120,
    ),
  );
  assert.is(bar, ` 1:Claude Code idle  2:Claude Code ${FORK_MARK}#8 idle  3:Claude Code ${FORK_MARK}#3 ${BRANCH_MARK}try-codex working `);
});

s('80 columns, 4 tabs, forks among them: every tab stays, each with its key, fork mark and status', () => {
  const tabs = [
    { label: 'Claude Code', agent: 'claude', model: 'default', status: 'idle' },
    { label: 'Claude Code', agent: 'claude', model: 'default', status: 'idle', fork: { at: 8 } },
    { label: 'Claude Code', agent: 'claude', model: 'default', status: 'working', fork: { at: 8, branch: 'baton/mx2u8k5kj1a6' } },
    { label: 'Codex CLI', agent: 'codex', model: 'default', status: 'idle', fork: { at: 13 } },
  ];
  for (const active of [0, 3]) {
    const bar = plain(formatTabBar(tabs, active, 80));
    assert.ok([...bar].length <= 80, `fits: ${bar}`);
    assert.not.match(bar, /^<|>$/, `no tab dropped: ${bar}`);
    // Titles are cut at a word: "Claude", not "Claud…".
    assert.is(bar, ` 1:Claude idle  2:Claude ${FORK_MARK}#8 idle  3:Claude ${FORK_MARK}#8${BRANCH_MARK} working  4:Codex CLI ${FORK_MARK}#13 idle `);
  }
  // Past what fits (a longer status), the tabs far from the active one give way, as before.
  const asking = plain(
    formatTabBar(
      tabs.map((t, i) => (i === 3 ? { ...t, status: 'approval' } : t)),
      3,
      80,
    ),
  );
  assert.ok([...asking].length <= 80, asking);
  assert.match(asking, /^< .*4:Codex ↳#13 needs you $/);
  // With a little more room the branch (cut) comes back before the titles grow.
  const wider = plain(formatTabBar(tabs, 0, 90));
  assert.match(wider, new RegExp(`${FORK_MARK}#8 ${BRANCH_MARK}mx2u8k5… working`));
});

s('a tab stopped by a reset says stopped, not exited, and is not greyed out', () => {
  const bar = formatTabBar(
    [
      { label: 'Claude Code', agent: 'claude', status: 'stopped' },
      { label: 'x', agent: 'shell', status: 'stopped' },
    ],
    0,
    80,
  );
  assert.match(plain(bar), /1:Claude Code stopped .*2:x shell stopped/);
  assert.not.match(bar, /gray-fg/);
});

s('a tab waiting for the user (a dialog, a permission, a question) says it needs you, and stands out in front and behind', () => {
  assert.match(plain(formatTabBar([{ label: 'x', agent: 'codex', status: 'approval' }], 0, 80)), / 1:x codex needs you $/);
  const bar = formatTabBar(
    [
      { label: 'a', agent: 'claude', status: 'idle' },
      { label: 'x', agent: 'codex', status: 'approval' },
    ],
    0,
    80,
  );
  assert.match(bar, /\{yellow-fg\}\{bold\} 2:x codex needs you \{\/bold\}\{\/yellow-fg\}/);
  // In front it is not the plain inverse every active tab gets: it still reads as waiting for you.
  const front = formatTabBar(
    [
      { label: 'a', agent: 'claude', status: 'idle' },
      { label: 'x', agent: 'codex', status: 'approval' },
    ],
    1,
    80,
  );
  assert.match(front, /\{yellow-bg\}\{black-fg\}\{bold\} 2:x codex needs you \{\/bold\}\{\/black-fg\}\{\/yellow-bg\}/);
  assert.not.match(front, /\{inverse\}[^{]*needs you/);
});

s('on a narrow screen titles shrink, then far tabs are dropped behind markers; the active tab stays', () => {
  const tabs = Array.from({ length: 12 }, (_, i) => ({ label: `a rather long title number ${i}`, agent: 'claude', status: 'idle' }));
  for (const active of [0, 5, 11]) {
    const bar = plain(formatTabBar(tabs, active, 80));
    assert.ok([...bar].length <= 80, `fits: ${bar}`);
    assert.ok(bar.includes(`${tabKey(active)}:`), `active tab ${active} shown: ${bar}`);
  }
});

s('tab keys are 1..9 then 0', () => {
  assert.equal([0, 1, 8, 9, 10].map(tabKey), ['1', '2', '9', '0', '']);
});

s('braces in titles are not taken for blessed tags', () => {
  assert.match(formatTabBar([{ label: '{bold}x', agent: 'shell', status: 'running' }], 0, 80), /\{open\}bold\{close\}x/);
});

s('the status line shows key hints that fit, or a message', () => {
  assert.match(formatStatusLine('C-b', 100), /C-b c new tab .* C-b q quit/);
  const narrow = formatStatusLine('C-b', 40);
  assert.ok([...narrow].length <= 40);
  assert.match(narrow, /C-b q quit/);
  assert.is(formatStatusLine('C-b', 80, 'hello'), ' hello');
});

// Any C0 control but \n and \t, DEL, or C1.
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
const DIRTY = '\u001b]0;pwned\u0007\u001b[2J\u0000\u009b31m';

s('titles, agent and model names, branches and messages from data never carry a control character', () => {
  const bar = formatTabBar(
    [
      { label: `fix${DIRTY} tests`, agent: `evil${DIRTY}`, model: `m${DIRTY}1`, status: `working${DIRTY}`, fork: { at: 3, branch: `baton/b${DIRTY}` } },
      { label: `two\nlines\tand a tab`, agent: 'shell', status: 'idle' },
    ],
    0,
    200,
  );
  assert.not.match(bar, CONTROL);
  assert.not.match(bar, /\n/, 'one line, whatever the title holds');
  assert.is(plain(bar), ' 1:fix tests evil·m1 ↳#3 ⎇b working  2:two lines and a tab shell idle ');
  const status = formatStatusLine('C-b', 200, `plugin problem: x.mjs: boom${DIRTY}\nsecond line`);
  assert.not.match(status, CONTROL);
  assert.is(status, ' plugin problem: x.mjs: boom second line');
  assert.is(escapeTags(`{bold}${DIRTY}x\ny`), '{open}bold{close}x\ny', 'escapeTags is the door to tagged text: controls go, lines stay');
});

s.run();
