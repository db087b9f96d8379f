// `baton reset`: hide and undo, checkpoints taken by `baton chat` in a real git repository,
// restore round trip, refusal over changes no checkpoint holds, and bad input.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, rmSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { main } from '../../src/cli.js';
import { bufferIo } from '../../src/commands/io.js';
import { readConversation } from '../../src/transcript/store.js';
import { writeFixtureDropIn } from '../helpers/acp-fixture.js';

let home = '';
let repo = '';
let plugins = '';

const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, encoding: 'utf8' });

async function run(args: string[]) {
  const env = { ...process.env, BATON_HOME: home, XDG_CONFIG_HOME: join(home, 'config') };
  const io = bufferIo(env, repo);
  const code = await main(['--plugins', plugins, ...args], io);
  return { code, out: io.stdout(), err: io.stderr() };
}

const r = suite('reset');
r.before.each(() => {
  home = mkdtempSync(join(tmpdir(), 'baton-reset-'));
  repo = mkdtempSync(join(tmpdir(), 'baton-reset-repo-'));
  plugins = join(home, 'plugins');
  writeFixtureDropIn(plugins, { name: 'alpha', env: { ACP_FIXTURE_HOME: join(home, 'alpha') } });
  git('init', '-q', '-b', 'main');
  git('config', 'user.email', 't@example.com');
  git('config', 'user.name', 'T');
  writeFileSync(join(repo, 'notes.txt'), 'v0');
  git('add', '.');
  git('commit', '-qm', 'init');
});
r.after.each(() => {
  rmSync(home, { recursive: true, force: true });
  rmSync(repo, { recursive: true, force: true });
});

/** Three turns, each writing notes.txt through the agent: v1, v2, v3. Returns the id and each user seq. */
async function threeTurns() {
  const first = await run(['chat', '--json', '--yes', '--new', '--agent', 'alpha', `[[write ${join(repo, 'notes.txt')} v1]]`]);
  assert.is(first.code, 0, first.err);
  const id = JSON.parse(first.out).conversation as string;
  for (const v of ['v2', 'v3']) {
    const n = await run(['chat', '--yes', '--conversation', id, `[[write ${join(repo, 'notes.txt')} ${v}]]`]);
    assert.is(n.code, 0, n.err);
  }
  assert.is(readFileSync(join(repo, 'notes.txt'), 'utf8'), 'v3');
  const conv = await readConversation(home, id);
  const users = conv.transcript.entries.filter((e) => e.kind === 'user_message');
  await conv.close();
  return { id, users };
}

r('each message sent by baton chat carries a checkpoint of the worktree before it', async () => {
  const { users } = await threeTurns();
  assert.is(users.length, 3);
  for (const u of users) assert.ok(u.checkpoint, `#${u.seq} has a checkpoint`);
  // The second message's checkpoint holds what the first turn wrote.
  assert.is(git('show', `${users[1]!.checkpoint}:notes.txt`), 'v1');
  assert.is(git('show', `${users[0]!.checkpoint}:notes.txt`), 'v0');
  assert.is(git('rev-parse', '--abbrev-ref', 'HEAD').trim(), 'main', 'HEAD untouched');
});

r('reset hides later entries; undo shows them again; the next send is a replay', async () => {
  const { id, users } = await threeTurns();
  const before = await run(['transcript', 'show', id]);
  const cut = users[1]!.seq - 1; // keep the first turn only
  const res = await run(['reset', id, '--to', String(cut)]);
  assert.is(res.code, 0, res.err);
  assert.match(res.out, /entries hidden/);
  const after = await run(['transcript', 'show', id]);
  assert.not.match(after.out, /v2\]\]/);
  assert.match(after.out, /v1\]\]/);
  assert.is(readFileSync(join(repo, 'notes.txt'), 'utf8'), 'v3', 'files untouched without --restore');

  const next = await run(['chat', '--json', '--conversation', id, 'after reset MARK-R']);
  assert.is(next.code, 0, next.err);
  const reply = JSON.parse(next.out)
    .entries.filter((e: { kind: string }) => e.kind === 'agent_text')
    .map((e: { text: string }) => e.text)
    .join('');
  assert.match(reply, /Fresh start/, 'a replay, not the native session that remembers the hidden turns');
  assert.not.match(reply, /v3\]\]/);

  const undo = await run(['reset', id, '--undo']);
  assert.is(undo.code, 0, undo.err);
  const all = await run(['transcript', 'show', id]);
  assert.match(all.out, /v3\]\]/);
  assert.ok(before.out.length < all.out.length);
});

r('reset --restore puts the worktree back; changes no checkpoint holds are refused unless --force', async () => {
  const { id, users } = await threeTurns();
  const cut = users[1]!.seq - 1;
  // notes.txt = v3 is not in any checkpoint (written by the last turn): refused.
  const refused = await run(['reset', id, '--to', String(cut), '--restore']);
  assert.is(refused.code, 5, refused.err);
  assert.match(refused.err, /^baton: /);
  assert.is(readFileSync(join(repo, 'notes.txt'), 'utf8'), 'v3', 'nothing changed');
  const conv = await readConversation(home, id);
  assert.not.ok(
    conv.transcript.entries.some((e) => e.kind === 'reset'),
    'no reset recorded',
  );
  await conv.close();

  writeFileSync(join(repo, 'scratch.txt'), 'new file');
  const forced = await run(['reset', id, '--to', String(cut), '--restore', '--force']);
  assert.is(forced.code, 0, forced.err);
  assert.is(readFileSync(join(repo, 'notes.txt'), 'utf8'), 'v1');
  assert.not.ok(existsSync(join(repo, 'scratch.txt')), 'a file the checkpoint lacks is removed');
});

r('bad input: seq out of range or hidden (exit 9), not a number, neither --to nor --undo, nothing to undo (exit 2); nothing recorded', async () => {
  const { id, users } = await threeTurns();
  const resets = async () => {
    const conv = await readConversation(home, id);
    const n = conv.transcript.entries.filter((e) => e.kind === 'reset').length;
    await conv.close();
    return n;
  };
  for (const [args, code, message] of [
    [['reset', id, '--to', '999'], 9, /--to 999 is not an entry of conversation/],
    [['reset', id, '--to', '0'], 9, /--to 0 is not an entry/],
    [['reset', id, '--to', 'abc'], 2, /--to must be a whole number \(an entry's seq\), got "abc"/],
    [['reset', id, '--to='], 2, /--to must be a whole number \(an entry's seq\), got ""/],
    [['reset', id], 2, /say either --to SEQ or --undo/],
    [['reset', id, '--undo'], 2, /has no reset to undo/],
    [['reset', 'nosuchid', '--to', '1'], 2, /no conversation nosuchid/],
  ] as const) {
    const x = await run([...args]);
    assert.is(x.code, code, `${args.join(' ')}: ${x.err}`);
    assert.match(x.err, /^baton: /);
    assert.match(x.err, message);
  }
  assert.is(await resets(), 0, 'no reset recorded');
  const ok = await run(['reset', id, '--to', String(users[1]!.seq - 1)]);
  assert.is(ok.code, 0, ok.err);
  // A reset to an entry the first reset hid would leave it hidden, and take the checkpoint from the wrong turn.
  const hidden = await run(['reset', id, '--to', String(users[2]!.seq), '--restore']);
  assert.is(hidden.code, 9, hidden.err);
  assert.match(hidden.err, new RegExp(`#${users[2]!.seq} of conversation ${id} is hidden by a reset`));
  assert.match(hidden.err, new RegExp(`hint: .*baton reset ${id} --undo`));
  assert.is(await resets(), 1, 'only the first reset');
  assert.is(readFileSync(join(repo, 'notes.txt'), 'utf8'), 'v3', 'no files restored');
});

r.run();
