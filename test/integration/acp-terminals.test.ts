// Client terminals for ACP agents: real processes from argv, exit status, output limits at
// a character boundary, kill and release ending the process group.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TerminalPool } from '../../src/plugins/acp-terminals.js';
import { groupAlive } from '../../src/proc/index.js';

const node = process.execPath;
let dir = '';
let pool: TerminalPool;

const t = suite('acp-terminals');
t.before.each(() => {
  dir = mkdtempSync(join(tmpdir(), 'baton-term-'));
  pool = new TerminalPool({ cwd: dir, env: { ...process.env, FROM_BATON: 'base' } });
});
t.after.each(async () => {
  await pool.dispose();
  rmSync(dir, { recursive: true, force: true });
});

t('runs argv as given (no shell), in the cwd, with env additions', async () => {
  const id = await pool.create({
    command: node,
    args: ['-e', 'console.log(process.cwd(), process.env.FROM_BATON, process.env.EXTRA, process.argv[1])', '$HOME;rm -rf x'],
    env: [{ name: 'EXTRA', value: 'yes' }],
  });
  const exit = await pool.waitForExit(id);
  assert.equal(exit, { exitCode: 0, signal: null });
  const out = pool.output(id);
  assert.is(out.output, `${dir} base yes $HOME;rm -rf x\n`);
  assert.is(out.truncated, false);
  assert.equal(out.exitStatus, { exitCode: 0, signal: null });
});

t('output over the byte limit keeps the end, starting on a whole character', async () => {
  // 'é' is 2 bytes: the last 10 bytes start in the middle of one, which is dropped.
  const id = await pool.create({ command: node, args: ['-e', "process.stdout.write('é'.repeat(50) + 'END')"], outputByteLimit: 10 });
  await pool.waitForExit(id);
  const out = pool.output(id);
  assert.is(out.truncated, true);
  assert.is(out.output, 'éééEND');
});

t('kill ends a running command (and its helpers); output stays readable until release', async () => {
  const id = await pool.create({
    command: node,
    args: [
      '-e',
      "require('child_process').spawn(process.execPath,['-e','setInterval(()=>{},1000)'],{stdio:'ignore'});console.log('started');setInterval(()=>{},1000)",
    ],
  });
  const deadline = Date.now() + 10_000;
  while (!pool.output(id).output.includes('started')) {
    if (Date.now() > deadline) throw new Error('the command did not start');
    await new Promise((r) => setTimeout(r, 20));
  }
  assert.is(pool.output(id).exitStatus, undefined, 'still running');
  const pgid = pool.pgidOf(id)!;
  assert.ok(groupAlive(pgid));
  await pool.kill(id);
  assert.not.ok(groupAlive(pgid), 'the helper went with it');
  const out = pool.output(id);
  assert.is(out.exitStatus!.signal, 'SIGTERM');
  assert.is(out.output, 'started\n');
  await pool.release(id);
  assert.throws(() => pool.output(id), /no terminal/);
  assert.is(pool.outputOf(id), 'started\n', 'a released terminal’s output is kept for the tool result');
});

t('a program that cannot start is a terminal that exited with 127', async () => {
  const id = await pool.create({ command: 'baton-no-such-program-xyz' });
  assert.equal(await pool.waitForExit(id), { exitCode: 127, signal: null });
  assert.match(pool.output(id).output, 'cannot run "baton-no-such-program-xyz": ENOENT');
});

t("a whole command line with no args (claude-code-acp's shell calls) runs under /bin/sh -c; with args, never a shell", async () => {
  const line = await pool.create({ command: 'touch made.txt && echo "made it"' });
  assert.equal(await pool.waitForExit(line), { exitCode: 0, signal: null });
  assert.is(pool.output(line).output, 'made it\n');
  assert.ok(existsSync(join(dir, 'made.txt')));
  const argv = await pool.create({ command: 'echo', args: ['a && touch no.txt'] });
  await pool.waitForExit(argv);
  assert.is(pool.output(argv).output, 'a && touch no.txt\n');
  assert.not.ok(existsSync(join(dir, 'no.txt')));
});

t('dispose ends every terminal still running', async () => {
  const id = await pool.create({ command: node, args: ['-e', 'setInterval(()=>{},1000)'] });
  const pgid = pool.pgidOf(id)!;
  const status = pool.waitForExit(id);
  await pool.dispose();
  assert.ok((await status).signal);
  assert.not.ok(groupAlive(pgid));
  assert.is(pool.outputOf(id), '');
});

t.run();
