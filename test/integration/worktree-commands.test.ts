// `baton worktree list` and `baton worktree remove` on worktree forks made by `baton fork
// --worktree` in real git repositories: the join with conversations, dirty after a change,
// remove refusing a dirty one unless --force, a locked one always, a conversation open in
// a running baton, a worktree baton did not make, and bad input.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../src/cli.js';
import { bufferIo } from '../../src/commands/io.js';
import { openConversation, readConversation } from '../../src/transcript/store.js';
import { writeFixtureDropIn } from '../helpers/acp-fixture.js';

let home = '';
let repo = '';
let plugins = '';
let forks = '';
let source = '';

const sh = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
const git = (...args: string[]) => sh(repo, ...args);
const tmp = (prefix: string) => realpathSync(mkdtempSync(join(tmpdir(), prefix)));
const branches = () => git('for-each-ref', '--format=%(refname:short)', 'refs/heads').split('\n').filter(Boolean).sort();

async function run(args: string[], cwd = repo) {
  const env = { ...process.env, BATON_HOME: home, XDG_CONFIG_HOME: join(home, 'config'), BATON_WORKTREES_DIR: forks };
  const io = bufferIo(env, cwd);
  const code = await main(['--plugins', plugins, ...args], io);
  return { code, out: io.stdout(), err: io.stderr() };
}

async function fork(name: string): Promise<{ id: string; path: string; branch: string }> {
  const r = await run(['fork', source, '--at', '2', '--worktree', '--name', name, '--json']);
  assert.is(r.code, 0, r.err);
  const j = JSON.parse(r.out) as { id: string; worktree: { path: string; branch: string } };
  return { id: j.id, path: j.worktree.path, branch: j.worktree.branch };
}

interface Row {
  path: string;
  branch: string | null;
  conversation?: { id: string };
  dirty: boolean | null;
  locked: boolean;
  missing: boolean;
}
async function list(cwd = repo): Promise<Row[]> {
  const r = await run(['worktree', 'list', '--json'], cwd);
  assert.is(r.code, 0, r.err);
  return JSON.parse(r.out) as Row[];
}

const w = suite('worktree commands');
w.before.each(async () => {
  home = tmp('baton-wtc-');
  repo = tmp('baton-wtc-repo-');
  forks = tmp('baton-wtc-forks-');
  plugins = join(home, 'plugins');
  writeFixtureDropIn(plugins, { name: 'alpha', env: { ACP_FIXTURE_HOME: join(home, 'alpha') } });
  git('init', '-q', '-b', 'main');
  git('config', 'user.email', 't@example.com');
  git('config', 'user.name', 'T');
  git('config', 'commit.gpgsign', 'false');
  writeFileSync(join(repo, 'a.txt'), 'a');
  git('add', '.');
  git('commit', '-qm', 'init');
  const r = await run(['chat', '--json', '--new', '--agent', 'alpha', 'hello']);
  assert.is(r.code, 0, r.err);
  source = JSON.parse(r.out).conversation;
});
w.after.each(() => {
  for (const d of [home, repo, forks]) rmSync(d, { recursive: true, force: true });
});

w('list: each fork with its conversation and branch, clean, then dirty after a change; from inside a fork too', async () => {
  const a = await fork('one');
  const b = await fork('two');
  let rows = await list();
  assert.equal(
    rows.map((r) => [r.conversation?.id, r.branch, r.dirty, r.path]),
    [
      [a.id, 'baton/one', false, a.path],
      [b.id, 'baton/two', false, b.path],
    ],
  );
  writeFileSync(join(b.path, 'a.txt'), 'changed in the fork');
  rows = await list(a.path);
  assert.equal(
    rows.map((r) => r.dirty),
    [false, true],
  );

  const text = await run(['worktree', 'list']);
  assert.is(text.code, 0, text.err);
  const lines = text.out.trim().split('\n');
  assert.match(lines[0]!, /^CONVERSATION\s+BRANCH\s+STATE\s+PATH$/);
  assert.match(lines[1]!, new RegExp(`^${a.id}\\s+baton/one\\s+clean\\s+${a.path}$`));
  assert.match(lines[2]!, new RegExp(`^${b.id}\\s+baton/two\\s+dirty\\s+${b.path}$`));

  // A worktree baton did not make is listed without a conversation.
  const own = join(forks, 'own');
  git('worktree', 'add', '-q', '-b', 'feature', own);
  rows = await list();
  assert.equal(rows.at(-1)!.conversation, undefined);
  assert.is(rows.at(-1)!.branch, 'feature');
});

w('remove: refused while dirty unless --force; removes worktree and branch; the conversation stays and records it', async () => {
  const a = await fork('dirty');
  writeFileSync(join(a.path, 'new.txt'), 'work in progress');
  const refused = await run(['worktree', 'remove', a.id]);
  assert.is(refused.code, 5, refused.err);
  assert.match(refused.err, /has uncommitted changes/);
  assert.match(refused.err, /hint: /);
  assert.ok(existsSync(join(a.path, 'new.txt')), 'nothing removed');
  assert.ok(branches().includes('baton/dirty'));

  const forced = await run(['worktree', 'remove', a.id, '--force']);
  assert.is(forced.code, 0, forced.err);
  assert.match(forced.out, /removed worktree .*; branch baton\/dirty deleted/);
  assert.not.ok(existsSync(a.path));
  assert.not.ok(branches().includes('baton/dirty'));
  assert.equal(await list(), []);
  const conv = await readConversation(home, a.id);
  const last = conv.transcript.entries.at(-1)!;
  assert.ok(last.kind === 'notice' && /was removed, and its branch baton\/dirty deleted/.test(last.text), JSON.stringify(last));
  await conv.close();
});

w('remove by path of a clean fork; checkpoints holding its branch tip make that safe without --force', async () => {
  const a = await fork('clean');
  const r = await run(['worktree', 'remove', a.path]);
  assert.is(r.code, 0, r.err);
  assert.not.ok(existsSync(a.path));
  assert.not.ok(branches().includes('baton/clean'));
  // Relative path, from the repository: another fork.
  const b = await fork('rel');
  const rel = await run(['worktree', 'remove', `../${b.path.split('/').slice(-2).join('/')}`]);
  assert.is(rel.code, 0, rel.err);
  assert.not.ok(existsSync(b.path));
});

w(
  'remove refuses: a locked worktree (exit 11, even with --force), an open conversation, another branch or a detached HEAD (7) checked out, a worktree baton did not make',
  async () => {
    const a = await fork('locked');
    git('worktree', 'lock', '--reason', 'on a usb disk', a.path);
    for (const args of [
      ['worktree', 'remove', a.id],
      ['worktree', 'remove', a.id, '--force'],
      ['worktree', 'remove', a.path, '--force'],
    ]) {
      const r = await run(args);
      assert.is(r.code, 11, `${args.join(' ')}: ${r.err}`);
      assert.match(r.err, /is locked \(on a usb disk\)/);
      assert.match(r.err, /hint: Unlock it first/);
    }
    assert.ok(existsSync(a.path));
    assert.ok(branches().includes('baton/locked'));
    git('worktree', 'unlock', a.path);

    const open = await openConversation(home, a.id, { write: true });
    try {
      const r = await run(['worktree', 'remove', a.id]);
      assert.is(r.code, 5, r.err);
      assert.ok(existsSync(a.path), 'a worktree is not pulled from under an open conversation');
    } finally {
      await open.close();
    }

    sh(a.path, 'checkout', '-q', '--detach');
    const detached = await run(['worktree', 'remove', a.id, '--force']);
    assert.is(detached.code, 7, detached.err);
    assert.match(detached.err, /has a detached HEAD \(at commit [0-9a-f]{12}\), not the fork's branch baton\/locked/);
    assert.match(detached.err, /hint: check out the fork's branch there again \(git -C .* switch baton\/locked\)/);
    assert.ok(existsSync(a.path));

    sh(a.path, 'checkout', '-q', '-b', 'mine');
    const other = await run(['worktree', 'remove', a.id, '--force']);
    assert.is(other.code, 5, other.err);
    assert.match(other.err, /has branch mine checked out, not the fork's branch baton\/locked/);
    assert.ok(branches().includes('mine'));

    const own = join(forks, 'own');
    git('worktree', 'add', '-q', '-b', 'feature', own);
    const notOurs = await run(['worktree', 'remove', own, '--force']);
    assert.is(notOurs.code, 5, notOurs.err);
    assert.match(notOurs.err, /was not made by baton/);
    assert.ok(existsSync(own));
  },
);

w('a conversation started in a subdirectory: its fork runs in the same subdirectory of the worktree; list and remove find it', async () => {
  mkdirSync(join(repo, 'pkg', 'app'), { recursive: true });
  writeFileSync(join(repo, 'pkg', 'app', 'main.txt'), 'm');
  const sub = join(repo, 'pkg', 'app');
  const c = await run(['chat', '--json', '--new', '--agent', 'alpha', 'from a subdirectory'], sub);
  assert.is(c.code, 0, c.err);
  const id = JSON.parse(c.out).conversation as string;
  const f = await run(['fork', id, '--at', '2', '--worktree', '--name', 'sub', '--json'], sub);
  assert.is(f.code, 0, f.err);
  const res = JSON.parse(f.out) as { id: string; cwd: string; worktree: { path: string } };
  assert.is(res.cwd, join(res.worktree.path, 'pkg', 'app'));
  const conv = await readConversation(home, res.id);
  assert.is(conv.meta.data.cwd, res.cwd);
  await conv.close();
  assert.is(readFileSync(join(res.cwd, 'main.txt'), 'utf8'), 'm');
  assert.equal(
    (await list()).map((r) => r.conversation?.id),
    [res.id],
  );
  const r = await run(['worktree', 'remove', res.id]);
  assert.is(r.code, 0, r.err);
  assert.not.ok(existsSync(res.worktree.path));
  assert.not.ok(branches().includes('baton/sub'));
});

w('bad input: not a repository (exit 6), a conversation that is no worktree fork, a path that is no worktree, the main worktree', async () => {
  const plain = tmp('baton-wtc-plain-');
  try {
    const r = await run(['worktree', 'list'], plain);
    assert.is(r.code, 6, r.err);
    assert.match(r.err, /is not a git repository/);
  } finally {
    rmSync(plain, { recursive: true, force: true });
  }
  const notFork = await run(['worktree', 'remove', source]);
  assert.is(notFork.code, 2, notFork.err);
  assert.match(notFork.err, /was not forked into a worktree/);
  const nowhere = await run(['worktree', 'remove', join(forks, 'nothing-here')]);
  assert.is(nowhere.code, 2, nowhere.err);
  assert.match(nowhere.err, /is not a worktree of/);
  const mainWt = await run(['worktree', 'remove', repo, '--force']);
  assert.is(mainWt.code, 2, mainWt.err);
  assert.match(mainWt.err, /is the main worktree/);
  assert.ok(existsSync(join(repo, 'a.txt')));
  const empty = await run(['worktree', 'list']);
  assert.match(empty.out, /no worktrees besides the main one/);
});

w.run();
