// The temporary index a checkpoint builds its snapshot in (src/worktree/snapshot.ts): a
// baton killed in the middle of a checkpoint leaves its baton-index-* directory (a copy
// of the repository's index) in the temp dir; the next baton that takes a checkpoint
// removes it, and never one of a live baton. Real processes: `baton chat` (dist) in a
// repository whose clean filter stops `git add` until the test has seen the directory
// and killed baton's whole process group; TMPDIR is the test's own, so nothing of other
// processes on the machine is looked at.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { writeFixtureDropIn } from '../helpers/acp-fixture.js';
import type { CliEnv } from '../helpers/cli-env.js';
import { gitRaw, initRepo, TempDirs } from '../helpers/git-repo.js';
import { describeRun, runCli } from '../helpers/run-cli.js';
import { until } from '../helpers/wait.js';
import { signalGroup } from '../../src/proc/index.js';
import { builtBaton } from '../helpers/built-baton.js';

const CLI = builtBaton();
const temps = new TempDirs('baton-snapshot-');

const s = suite('snapshot temp index');
s.after(() => temps.cleanup());

s('a temporary index left by a baton killed mid-checkpoint is removed by the next run; a live one is kept', async () => {
  const root = temps.make();
  const tmp = join(root, 'tmp');
  mkdirSync(tmp);
  const plugins = join(root, 'plugins');
  writeFixtureDropIn(plugins, { name: 'alpha', title: 'Alpha', env: { ACP_FIXTURE_HOME: join(root, 'alpha-sessions') } });
  mkdirSync(join(root, 'repo'));
  const repo = initRepo(join(root, 'repo'), { files: { 'a.txt': 'a\n', '.gitattributes': '*.hang filter=hang\n' }, message: 'init' });
  writeFileSync(join(repo, 'work.hang'), 'untracked work\n');
  const reached = join(root, 'reached');
  gitRaw(repo, ['config', 'filter.hang.clean', `sh -c 'touch ${reached}; exec sleep 300'`]);
  const env = { ...(process.env as Record<string, string>), BATON_HOME: join(root, 'home'), XDG_CONFIG_HOME: join(root, 'config'), TMPDIR: tmp };
  const temporaries = () =>
    readdirSync(tmp)
      .filter((n) => n.startsWith('baton-index-'))
      .sort();

  const child = spawn(process.execPath, [CLI, '--plugins', plugins, 'chat', '--new', '--agent', 'alpha', 'hello'], {
    cwd: repo,
    env,
    stdio: 'ignore',
    detached: true,
  });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  try {
    await until(() => existsSync(reached), 'the checkpoint to be inside git add', 60_000);
    const during = temporaries();
    assert.is(during.length, 1, `one temporary index while the checkpoint runs: ${during.join(', ')}`);
    assert.ok(existsSync(join(tmp, during[0]!, 'index')), 'it holds the copy of the index');
  } finally {
    signalGroup(child.pid!, 'SIGKILL');
  }
  await exited;
  const left = temporaries();
  assert.is(left.length, 1, 'the crash left it behind');

  // A live baton's (this process's pid) and a young one of an older baton (no pid in the name) stay.
  const live = join(tmp, `baton-index-${process.pid}-aB3dE9`);
  const young = join(tmp, 'baton-index-Qw12Er');
  mkdirSync(live);
  mkdirSync(young);
  gitRaw(repo, ['config', '--unset', 'filter.hang.clean']);
  const r = await runCli(
    { bin: process.execPath, cwd: repo, env } as unknown as CliEnv,
    [CLI, '--plugins', plugins, 'chat', '--new', '--agent', 'alpha', 'again'],
    { timeoutMs: 60_000 },
  );
  assert.is(r.code, 0, describeRun(r));
  assert.equal(temporaries(), [basename(live), basename(young)].sort(), "the dead baton's copy of the index is gone");
});

s.run();
