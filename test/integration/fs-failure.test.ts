// Disks and directories that refuse, through the real CLI (dist/src/cli.js, each run in its
// own process group): a full disk (ENOSPC: before the turn and in the middle of the
// agent's reply), a read-only BATON_HOME (EROFS), one the user may not write (EACCES, the
// child run as nobody: root ignores modes), BATON_HOME that is a file or /dev/null or
// lies under one (ENOTDIR), and BATON_HOME under /proc, where Node's recursive mkdir
// retried forever. Each ends with exit 2, one `baton:` message naming the path and the
// cause, a hint, no stack trace; and nothing is lost: the conversation that was there
// loads exactly as before, with no leftover temp or lock file.
//
// How the machine makes these: a tmpfs of a few hundred KiB mounted (as root) on a temp
// dir, filled to the last byte or remounted read-only, unmounted after each test
// (helpers/small-disk.ts); EACCES by running baton as nobody through setpriv. Where the
// machine cannot (not root, no mount), those tests are skipped and the reason printed.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readConversation } from '../../src/transcript/store.js';
import { writeFixtureDropIn } from '../helpers/acp-fixture.js';
import type { CliEnv } from '../helpers/cli-env.js';
import { describeRun, runCli, type CliRun } from '../helpers/run-cli.js';
import { asNobody, SmallDisk, smallDiskProblem } from '../helpers/small-disk.js';
import { builtBaton } from '../helpers/built-baton.js';

const CLI = builtBaton();

let root = '';
let plugins = '';
let work = '';

/** baton as a real process with BATON_HOME=home; `prefix` runs it through another program (setpriv). */
async function cli(home: string, args: string[], opts: { prefix?: string[]; timeoutMs?: number } = {}): Promise<CliRun> {
  const env = { ...(process.env as Record<string, string>), BATON_HOME: home, XDG_CONFIG_HOME: join(root, 'config'), USER: 'tester' };
  const [bin, ...pre] = opts.prefix ?? [];
  const e = { bin: bin ?? process.execPath, cwd: work, env } as unknown as CliEnv;
  const argv = [...(bin ? [...pre, process.execPath] : []), CLI, '--plugins', plugins, ...args];
  const r = await runCli(e, argv, { timeoutMs: opts.timeoutMs ?? 60_000 });
  assert.not.ok(r.timedOut, `baton ${args.join(' ')} did not end: ${describeRun(r)}`);
  return r;
}

/** Exit 2, one `baton:` message matching `message`, a hint matching `hint`, no stack trace, nothing on stdout. */
function failsCleanly(r: CliRun, message: RegExp, hint: RegExp): void {
  const what = describeRun(r);
  assert.is(r.code, 2, what);
  assert.is(r.stdout, '', `nothing on stdout: ${what}`);
  const errors = r.stderr.split('\n').filter((l) => l.startsWith('baton: ') && !l.startsWith('baton: warning:'));
  assert.is(errors.length, 1, `one message: ${what}`);
  assert.match(errors[0]!, message, what);
  assert.match(/\n {2}hint: (.*)\n/.exec(r.stderr)?.[1] ?? '', hint, what);
  assert.not.match(r.stderr, /\n\s+at .*(\.js|\.ts):\d+/, `no stack trace: ${what}`);
  assert.not.match(r.stderr, /Error: E[A-Z]+:/, `no raw error: ${what}`);
}

/** A conversation made by baton chat with the fixture agent; returns its id. */
async function seed(home: string, text: string): Promise<string> {
  const r = await cli(home, ['chat', '--json', '--new', '--agent', 'alpha', text]);
  assert.is(r.code, 0, describeRun(r));
  return JSON.parse(r.stdout).conversation as string;
}

/** What a conversation holds, as a reader loads it: its entries and the problems found. */
async function contents(home: string, id: string) {
  const c = await readConversation(home, id);
  const out = {
    entries: JSON.parse(JSON.stringify(c.transcript.entries)) as Array<Record<string, unknown>>,
    problems: c.problems.map((p) => `${p.kind}: ${p.detail}`),
  };
  await c.close();
  return out;
}

const files = (dir: string) => (existsSync(dir) ? readdirSync(dir).sort() : []);

const s = suite('fs failure');
s.before(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'baton-fsfail-')));
  // nobody must be able to reach the CLI's inputs (the plugins, the work dir) through it.
  chmodSync(root, 0o755);
  plugins = join(root, 'plugins');
  work = join(root, 'work');
  mkdirSync(work, { mode: 0o755 });
  writeFixtureDropIn(plugins, { name: 'alpha', title: 'Alpha', env: { ACP_FIXTURE_HOME: join(root, 'alpha-sessions') } });
  chmodSync(plugins, 0o755);
});
s.after(() => {
  rmSync(root, { recursive: true, force: true });
});

s('BATON_HOME that is a file, /dev/null, or a path through one: exit 2 naming it (ENOTDIR), the file untouched', async () => {
  const file = join(root, 'state-file');
  writeFileSync(file, 'keep me\n');
  for (const home of [file, '/dev/null', join(file, 'baton'), '/dev/null/baton']) {
    for (const args of [
      ['chat', '--new', '--agent', 'alpha', 'hello'],
      ['transcript', 'list'],
    ]) {
      const r = await cli(home, args);
      failsCleanly(r, new RegExp(`^baton: BATON_HOME ${home.replace(/[/.]/g, '\\$&')} is not a directory`), /set BATON_HOME to a directory/);
    }
  }
  assert.is(readFileSync(file, 'utf8'), 'keep me\n');
});

s('BATON_HOME under /proc: chat ends with exit 2 instead of retrying mkdir forever', async () => {
  const home = `/proc/baton-test-${process.pid}/home`;
  // The point is that it ends at all: the generous limit only keeps a regression from hanging the suite.
  const r = await cli(home, ['chat', '--new', '--agent', 'alpha', 'hello'], { timeoutMs: 90_000 });
  failsCleanly(
    r,
    new RegExp(`^baton: cannot create /proc/baton-test-${process.pid}: that file system does not allow a directory there \\(ENOENT\\)`),
    /BATON_HOME/,
  );
  const list = await cli(home, ['transcript', 'list']);
  assert.is(list.code, 0, describeRun(list));
});

const diskProblem = smallDiskProblem();
if (diskProblem) console.log(`fs failure: skipping the full-disk and read-only tests: ${diskProblem}`);
const onDisk = diskProblem ? s.skip : s;

onDisk('a full disk (ENOSPC) before the turn: exit 2 for an existing and a new conversation, nothing lost, nothing left behind', async () => {
  const disk = SmallDisk.mount(512);
  try {
    const home = join(disk.dir, 'home');
    const id = await seed(home, 'first MARK-FULL');
    const before = await contents(home, id);
    disk.fill();

    const again = await cli(home, ['chat', '--conversation', id, 'second MARK-LOST']);
    failsCleanly(
      again,
      /^baton: cannot write \S+\/conversations\/\w+\/lock: no space left on the device \(ENOSPC\)$/,
      /free some space.*BATON_HOME.*what was saved before is intact/,
    );
    const fresh = await cli(home, ['chat', '--new', '--agent', 'alpha', 'third MARK-LOST']);
    failsCleanly(fresh, /^baton: cannot write \S+: no space left on the device \(ENOSPC\)$/, /free some space/);

    assert.equal(files(join(home, 'conversations')), [id], 'no new conversation, no .new-* directory');
    assert.equal(files(join(home, 'conversations', id)), ['meta.json', 'transcript.jsonl'], 'no lock or temp file left');
    disk.free();
    assert.equal(await contents(home, id), before, 'the conversation loads exactly as before');
  } finally {
    disk.unmount();
  }
});

onDisk('a full disk in the middle of the reply: exit 2, the log ends with its last whole entry, and the next turn carries on', async () => {
  const disk = SmallDisk.mount(512);
  try {
    const home = join(disk.dir, 'home');
    const id = await seed(home, 'first MARK-MID');
    const before = await contents(home, id);
    // Room for the message, not for the tool result the agent then reads (100 KB), from the
    // turn's own directory: baton's client fs serves nothing outside it.
    const big = join(work, 'big.txt');
    writeFileSync(big, 'B'.repeat(100_000));
    disk.fill();
    disk.free(48 * 1024);

    const r = await cli(home, ['chat', '--conversation', id, `[[read ${big}]] MARK-MSG`]);
    failsCleanly(r, /^baton: cannot write \S+\/transcript\.jsonl: no space left on the device \(ENOSPC\)$/, /free some space.*what was saved before is intact/);
    assert.equal(files(join(home, 'conversations', id)), ['meta.json', 'transcript.jsonl'], 'no lock or temp file left');

    disk.free();
    const after = await contents(home, id);
    assert.equal(after.problems, [], 'no torn line: the failed append was taken back');
    assert.equal(after.entries.slice(0, before.entries.length), before.entries, 'everything from before is intact');
    assert.ok(
      after.entries.some((e) => e.kind === 'user_message' && String(e.text).includes('MARK-MSG')),
      'the message that reached the disk is kept',
    );

    const next = await cli(home, ['chat', '--conversation', id, 'after MARK-NEXT']);
    assert.is(next.code, 0, describeRun(next));
    const last = await contents(home, id);
    assert.equal(last.problems, []);
    assert.equal(last.entries.slice(0, after.entries.length), after.entries);
    assert.ok(last.entries.some((e) => e.kind === 'user_message' && String(e.text).includes('MARK-NEXT')));
  } finally {
    disk.unmount();
  }
});

onDisk('a read-only BATON_HOME (EROFS): exit 2 for chat, reading still works, nothing lost', async () => {
  const disk = SmallDisk.mount(512);
  try {
    const home = join(disk.dir, 'home');
    const id = await seed(home, 'first MARK-RO');
    const before = await contents(home, id);
    disk.readOnly();

    const again = await cli(home, ['chat', '--conversation', id, 'second']);
    failsCleanly(
      again,
      /^baton: cannot open \S+\/conversations\/\w+\/lock: the file system is read-only \(EROFS\)$/,
      /set BATON_HOME to a directory on a writable file system/,
    );
    const fresh = await cli(home, ['chat', '--new', '--agent', 'alpha', 'third']);
    failsCleanly(fresh, /^baton: cannot create \S+\/conversations\/\.new-\S+: the file system is read-only \(EROFS\)$/, /writable file system/);
    const show = await cli(home, ['transcript', 'show', id]);
    assert.is(show.code, 0, describeRun(show));
    assert.match(show.stdout, /MARK-RO/);

    disk.readWrite();
    assert.equal(files(join(home, 'conversations')), [id]);
    assert.equal(files(join(home, 'conversations', id)), ['meta.json', 'transcript.jsonl']);
    assert.equal(await contents(home, id), before);
  } finally {
    disk.unmount();
  }
});

onDisk('a read-only disk where BATON_HOME is still to be made: exit 2 naming it', async () => {
  const disk = SmallDisk.mount(64);
  try {
    disk.readOnly();
    const home = join(disk.dir, 'home');
    const r = await cli(home, ['chat', '--new', '--agent', 'alpha', 'hello']);
    failsCleanly(r, new RegExp(`^baton: cannot create ${home}: the file system is read-only \\(EROFS\\)$`), /BATON_HOME/);
  } finally {
    disk.unmount();
  }
});

const nobody = asNobody();
if ('problem' in nobody) console.log(`fs failure: skipping the permission test: ${nobody.problem}`);

('problem' in nobody ? s.skip : s)('a BATON_HOME this user may not write (EACCES): exit 2 for chat and list, nothing lost', async () => {
  const prefix = 'argv' in nobody ? nobody.argv : [];
  const home = join(root, 'root-home');
  const id = await seed(home, 'first MARK-ACCES');
  const before = await contents(home, id);
  // Another user's state, readable but not writable (baton itself makes it 0700).
  chmodSync(home, 0o755);
  chmodSync(join(home, 'conversations'), 0o755);

  const again = await cli(home, ['chat', '--conversation', id, 'second'], { prefix });
  failsCleanly(again, /^baton: cannot open \S+\/conversations\/\w+\/lock: permission denied \(EACCES\)$/, /give your user access to it.*BATON_HOME/);
  const fresh = await cli(home, ['chat', '--new', '--agent', 'alpha', 'third'], { prefix });
  failsCleanly(fresh, /^baton: cannot create \S+\/conversations\/\.new-\S+: permission denied \(EACCES\)$/, /give your user access/);

  chmodSync(home, 0o700);
  const list = await cli(home, ['transcript', 'list'], { prefix });
  failsCleanly(list, /^baton: cannot read \S+\/conversations: permission denied \(EACCES\)$/, /BATON_HOME/);

  assert.equal(files(join(home, 'conversations')), [id]);
  assert.equal(files(join(home, 'conversations', id)), ['meta.json', 'transcript.jsonl']);
  assert.equal(await contents(home, id), before);
});

s.run();
