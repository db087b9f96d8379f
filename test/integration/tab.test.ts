import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Tab } from '../../src/tui/tab.js';
import { alive } from '../../src/proc/index.js';
import { until } from '../helpers/wait.js';

const s = suite('tab');
const baseEnv = { PATH: process.env.PATH, PS1: '$ ' };
const shell = (script?: string) => ({ command: '/bin/sh', args: script ? ['-c', script] : ['-i'], env: {}, cwd: '/', agent: 'shell' });

s('a tab runs its launch in a pane; the title comes from the launch, else the program, else the command', async () => {
  const t = new Tab({ ...shell('printf "\\033]0;my title\\007"; sleep 30') }, { cols: 40, rows: 5, baseEnv });
  try {
    assert.is(t.label, 'sh');
    await until(() => t.label === 'my title', 'OSC title');
    t.setTitle('given');
    assert.is(t.label, 'given');
  } finally {
    await t.dispose();
  }
});

s('exit sets the status to exited and tells listeners; an exited tab is not busy', async () => {
  const t = new Tab(shell('exit 3'), { cols: 40, rows: 5, baseEnv });
  let changes = 0;
  t.onChange(() => changes++);
  await until(() => t.status === 'exited', 'exit');
  assert.is(t.exit?.exitCode, 3);
  assert.ok(changes >= 1);
  assert.not.ok(t.busy());
  await t.dispose();
});

s('busy: a driver status of working/approval, or a shell running a command', async () => {
  const t = new Tab(shell(), { cols: 40, rows: 5, baseEnv });
  try {
    await until(() => t.pane.rowText(0).includes('$'), 'prompt');
    assert.not.ok(t.busy());
    t.setStatus('working');
    assert.ok(t.busy());
    t.setStatus('idle');
    t.pane.write('sleep 60\r');
    await until(() => t.busy(), 'busy shell');
  } finally {
    await t.dispose();
  }
});

s('relaunch ends the old program before the new one starts, in the same tab', async () => {
  const t = new Tab(shell('sleep 300'), { cols: 40, rows: 5, baseEnv });
  const oldPid = t.pane.pid;
  const oldPane = t.pane;
  const seen: string[] = [];
  t.onChange(() => seen.push(t.status));
  await t.relaunch({ ...shell('echo second; sleep 30'), agent: 'other', model: 'm1' }, 300);
  try {
    assert.not.ok(seen.includes('exited'), `never said exited on the way: ${seen.join(' ')}`);
    assert.not.ok(alive(oldPid));
    assert.is.not(t.pane, oldPane);
    assert.is(t.agent, 'other');
    assert.is(t.model, 'm1');
    assert.is(t.status, 'running');
    await until(() => t.pane.rowText(0) === 'second', 'new program output');
  } finally {
    await t.dispose();
  }
});

s("baton's own stop (a switch's) says stopped, never exited: the app tells the user only of an exit", async () => {
  const t = new Tab(shell('sleep 300'), { cols: 40, rows: 5, baseEnv });
  const seen: string[] = [];
  t.onChange(() => seen.push(t.status));
  const pid = t.pane.pid;
  try {
    await t.stopProgram(300);
    assert.not.ok(alive(pid));
    await until(() => t.status === 'stopped', 'stopped');
    assert.not.ok(seen.includes('exited'), seen.join(' '));
    assert.not.ok(t.busy());
    await t.relaunch(shell('echo again; sleep 30'), 300);
    assert.is(t.status, 'running');
    await until(() => t.pane.rowText(0) === 'again', 'the next program');
  } finally {
    await t.dispose();
  }
});

s.run();
