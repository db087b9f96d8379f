import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { formatStatusLine, formatTabBar, tabKey } from '../src/tui/tab-bar.js';

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

s('needs approval is spelled out', () => {
  assert.match(plain(formatTabBar([{ label: 'x', agent: 'codex', status: 'approval' }], 0, 80)), /needs approval/);
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

s.run();
