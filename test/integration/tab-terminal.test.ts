// TabTerminal and the files a launch wrote (LaunchSpec.files, a handoff brief): they live as
// long as the run — removed when the program exits on its own, when the next launch replaces
// it in the same tab, and when the tab is closed. Real PTYs, real files in a temp dir.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TerminalLaunch } from '../../src/conversation/agent-terminal.js';
import { writeHandoffFile } from '../../src/plugins/handoff-file.js';
import { Tab } from '../../src/tui/tab.js';
import { TabTerminal } from '../../src/tui/tab-terminal.js';
import { until } from '../helpers/term.js';

const baseEnv = { PATH: process.env.PATH };
let root = '';
const tabs: Tab[] = [];
const s = suite('tab terminal: launch files');
s.before.each(() => {
  root = mkdtempSync(join(tmpdir(), 'baton-tabterm-'));
});
s.after.each(async () => {
  await Promise.all(tabs.splice(0).map((t) => t.dispose(300)));
  rmSync(root, { recursive: true, force: true });
});

function terminal(): TabTerminal {
  return new TabTerminal((l) => {
    const t = new Tab(l, { cols: 40, rows: 5, baseEnv });
    tabs.push(t);
    return t;
  });
}

const launch = (script: string, files: string[]): TerminalLaunch => ({
  command: '/bin/sh', args: ['-c', script], env: {}, cwd: root, prompt: 'argv', files, agent: 'x', model: 'default', title: 'X',
});

s('a file of the launch is there while the program runs and gone once it exits', async () => {
  const term = terminal();
  const { path } = writeHandoffFile(root, 'sw1', 'brief');
  await term.launch(launch('read line; exit 0', [path]));
  assert.ok(existsSync(path), 'kept while the run lasts');
  term.write('done\r');
  await until(() => !existsSync(path), 'the handoff file removed after the exit');
  assert.not.ok(existsSync(join(root, '.baton')));
  term.dispose();
});

s('the next launch in the same tab ends the run, and its file with it; closing the tab ends the last', async () => {
  const term = terminal();
  const first = writeHandoffFile(root, 'sw1', 'one').path;
  await term.launch(launch('sleep 300', [first]));
  const second = writeHandoffFile(root, 'sw2', 'two').path;
  await term.launch(launch('sleep 300', [second]));
  await until(() => !existsSync(first), "the first run's file removed");
  assert.ok(existsSync(second), "the running one's stays");
  await term.stop(300);
  await until(() => !existsSync(second), "the second run's file removed");
  term.dispose();
});

s('a launch that cannot start leaves no file behind', async () => {
  const term = new TabTerminal(() => {
    throw new Error('no pty');
  });
  const { path } = writeHandoffFile(root, 'sw1', 'brief');
  try {
    await term.launch(launch('true', [path]));
    assert.unreachable('the launch threw');
  } catch (e) {
    assert.is((e as Error).message, 'no pty');
  }
  assert.not.ok(existsSync(path));
  term.dispose();
});

s.run();
