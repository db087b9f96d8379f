// Checkpoint refs go with their conversation: `baton transcript prune` and the start-up
// pruning of `baton chat` delete the pruned conversations' refs/baton/checkpoints/<id>/ in
// the real git repository they ran in, leave everyone else's, and warn (with the command to
// run by hand) when the directory is gone.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, realpathSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../src/cli.js';
import { bufferIo } from '../../src/commands/io.js';
import { deletePrunedCheckpoints } from '../../src/conversation/prune-checkpoints.js';
import { writeFixtureDropIn } from '../helpers/acp-fixture.js';

let home = '';
let repo = '';
let plugins = '';

const sh = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
const tmp = (prefix: string) => realpathSync(mkdtempSync(join(tmpdir(), prefix)));
const refsOf = (dir: string, id: string) => sh(dir, 'for-each-ref', '--format=%(refname)', `refs/baton/checkpoints/${id}/`).split('\n').filter(Boolean);

function initRepo(dir: string) {
  sh(dir, 'init', '-q', '-b', 'main');
  sh(dir, 'config', 'user.email', 't@example.com');
  sh(dir, 'config', 'user.name', 'T');
  writeFileSync(join(dir, 'a.txt'), 'a');
  sh(dir, 'add', '.');
  sh(dir, 'commit', '-qm', 'init');
}

async function run(args: string[], opts: { cwd?: string; env?: Record<string, string> } = {}) {
  const env = { ...process.env, BATON_HOME: home, XDG_CONFIG_HOME: join(home, 'config'), BATON_RETENTION_DAYS: 'never', ...opts.env };
  const io = bufferIo(env, opts.cwd ?? repo);
  const code = await main(['--plugins', plugins, ...args], io);
  return { code, out: io.stdout(), err: io.stderr() };
}

/** A conversation of two turns in cwd (two checkpoints); returns its id. */
async function conversation(cwd = repo): Promise<string> {
  const r = await run(['chat', '--json', '--new', '--agent', 'alpha', 'one'], { cwd });
  assert.is(r.code, 0, r.err);
  const id = JSON.parse(r.out).conversation as string;
  const r2 = await run(['chat', '--conversation', id, 'two'], { cwd });
  assert.is(r2.code, 0, r2.err);
  return id;
}

/** Makes a conversation look untouched for 30 days. */
function age(id: string) {
  const dir = join(home, 'conversations', id);
  const past = new Date(Date.now() - 30 * 24 * 3600 * 1000);
  const metaPath = join(dir, 'meta.json');
  writeFileSync(metaPath, JSON.stringify({ ...JSON.parse(readFileSync(metaPath, 'utf8')), updated: past.toISOString() }));
  for (const f of ['transcript.jsonl', 'meta.json']) utimesSync(join(dir, f), past, past);
}

const p = suite('prune checkpoints');
p.before.each(() => {
  home = tmp('baton-prune-cp-');
  repo = tmp('baton-prune-cp-repo-');
  plugins = join(home, 'plugins');
  writeFixtureDropIn(plugins, { name: 'alpha', env: { ACP_FIXTURE_HOME: join(home, 'alpha') } });
  initRepo(repo);
});
p.after.each(() => {
  rmSync(home, { recursive: true, force: true });
  rmSync(repo, { recursive: true, force: true });
});

p("transcript prune deletes the pruned conversation's checkpoint refs and keeps the others'; --dry-run keeps them all", async () => {
  const old = await conversation();
  const kept = await conversation();
  assert.is(refsOf(repo, old).length, 2);
  assert.is(refsOf(repo, kept).length, 2);
  age(old);
  const dry = await run(['transcript', 'prune', '--older-than', '7', '--dry-run']);
  assert.is(dry.code, 0, dry.err);
  assert.match(dry.out, new RegExp(`would prune ${old}`));
  assert.is(refsOf(repo, old).length, 2, 'a dry run deletes nothing');

  const r = await run(['transcript', 'prune', '--older-than', '7']);
  assert.is(r.code, 0, r.err);
  assert.match(r.out, new RegExp(`pruned ${old}`));
  assert.equal(refsOf(repo, old), []);
  assert.is(refsOf(repo, kept).length, 2);
  assert.is(r.err, '');
});

p("a fork holds its copied entries' checkpoints under its own id: pruning the source leaves them, and a restore in the fork still works", async () => {
  const src = await conversation();
  const f = await run(['fork', src, '--at', '999999']);
  assert.is(f.code, 9, 'seq out of range first (no such entry)');
  const convPath = join(home, 'conversations', src, 'transcript.jsonl');
  const seqs = readFileSync(convPath, 'utf8')
    .split('\n')
    .filter(Boolean)
    .slice(1)
    .map((l) => JSON.parse(l) as { seq: number; kind: string });
  const last = seqs.at(-1)!.seq;
  const r = await run(['fork', src, '--at', String(last)]);
  assert.is(r.code, 0, r.err);
  const forkId = r.out.split('\n')[0]!;
  assert.is(refsOf(repo, forkId).length, 2, "both messages' checkpoints copied");
  age(src);
  const pr = await run(['transcript', 'prune', '--older-than', '7']);
  assert.is(pr.code, 0, pr.err);
  assert.equal(refsOf(repo, src), []);
  assert.is(refsOf(repo, forkId).length, 2, "the fork's refs stay");
  // Collect garbage now: only the fork's refs keep the source's checkpoint commits alive.
  sh(repo, 'gc', '-q', '--prune=now');
  writeFileSync(join(repo, 'a.txt'), 'changed after');
  const firstUser = seqs.find((e) => e.kind === 'user_message')!.seq;
  const reset = await run(['reset', forkId, '--to', String(firstUser), '--restore', '--force']);
  assert.is(reset.code, 0, reset.err);
  assert.is(readFileSync(join(repo, 'a.txt'), 'utf8'), 'a', 'restored from a checkpoint the pruned source took');
});

p('baton chat prunes at start-up by BATON_RETENTION_DAYS, checkpoint refs included', async () => {
  const old = await conversation();
  age(old);
  const r = await run(['chat', '--new', '--agent', 'alpha', 'a new one'], { env: { BATON_RETENTION_DAYS: '7' } });
  assert.is(r.code, 0, r.err);
  assert.equal(refsOf(repo, old), []);
});

p('a pruned conversation whose directory is gone: a warning naming it and the command to run, and the prune still succeeds', async () => {
  const elsewhere = tmp('baton-prune-cp-gone-');
  initRepo(elsewhere);
  const gone = await conversation(elsewhere);
  rmSync(elsewhere, { recursive: true, force: true });
  age(gone);
  const r = await run(['transcript', 'prune', '--older-than', '7']);
  assert.is(r.code, 0, r.err);
  assert.match(r.out, new RegExp(`pruned ${gone}`));
  assert.match(r.err, new RegExp(`baton: warning: the checkpoints of pruned conversation ${gone} were left in place: its directory .* is gone`));
  assert.match(r.err, new RegExp(`git for-each-ref --format='delete %\\(refname\\)' refs/baton/checkpoints/${gone}/ \\| git update-ref --stdin`));
});

p('deletePrunedCheckpoints: a directory that is no repository has nothing to delete and says nothing', async () => {
  const plain = tmp('baton-prune-cp-plain-');
  try {
    const warnings: string[] = [];
    const r = await deletePrunedCheckpoints(
      [
        { id: 'abcd1234', title: '', cwd: plain, updated: '' },
        { id: 'abcd1235', title: '', cwd: '', updated: '' },
      ],
      (w) => warnings.push(w),
    );
    assert.equal(r, { deleted: 0, unreachable: [] });
    assert.equal(warnings, []);
  } finally {
    rmSync(plain, { recursive: true, force: true });
  }
});

p.run();
