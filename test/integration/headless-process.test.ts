// The process of one headless turn, with real node processes as the CLI: JSON object lines
// of stdout in order (banners, arrays and a last line without newline), the prompt on
// stdin or no stdin at all, the tail of stderr, the exit, an abort (before and during),
// the deadline, a handler that throws, a program that cannot start, and a group swept
// after its leader exits with a helper still holding stdout: nothing is left running.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { groupAlive } from '../../src/proc/index.js';
import { lastLines, resumeHonoured, runHeadlessProcess, type HeadlessProcessOptions } from '../../src/plugins/headless-process.js';
import { until } from '../helpers/wait.js';

const node = process.execPath;
const t = suite('headless-process');

function run(script: string, more: Partial<HeadlessProcessOptions & { cwd: string; timeoutMs: number; signal: AbortSignal }> = {}) {
  const records: Record<string, unknown>[] = [];
  const { cwd = process.cwd(), timeoutMs = 30_000, signal, ...rest } = more;
  const done = runHeadlessProcess(
    node,
    ['-e', script],
    { cwd, timeoutMs, signal },
    {
      env: process.env,
      graceMs: 500,
      stdin: undefined,
      onRecord: (r) => records.push(r),
      cannotStart: (err) => new Error(`cannot start: ${err.code}`),
      ...rest,
    },
  );
  return { records, done };
}

t('records in order from stdout, the prompt on stdin, the exit code and what stderr said', async () => {
  const script = `let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{
    process.stdout.write('Loaded cached credentials.\\n{"type":"init"}\\n[1,2]\\n{broken\\n');
    process.stdout.write(JSON.stringify({type:'prompt',length:s.length,tail:s.slice(-3)})+'\\n');
    process.stderr.write('warming up\\nError: the model said no\\n');
    process.stdout.write('{"type":"last"}', () => process.exit(3));
  });`;
  const prompt = `${'x'.repeat(300_000)}end`;
  const { records, done } = run(script, { stdin: prompt });
  const exit = await done;
  assert.equal(records, [{ type: 'init' }, { type: 'prompt', length: prompt.length, tail: 'end' }, { type: 'last' }]);
  assert.equal(exit, { code: 3, signal: null, stderr: 'warming up\nError: the model said no\n', timedOut: false, aborted: false });
});

t('no prompt: no stdin at all, not an empty pipe', async () => {
  // /dev/null, or node's socketpair.
  const kind = `const st=require('fs').fstatSync(0);console.log(JSON.stringify({devNull:st.isCharacterDevice(),pipe:st.isSocket()||st.isFIFO()}))`;
  const none = run(kind);
  await none.done;
  assert.equal(none.records, [{ devNull: true, pipe: false }]);
  const piped = run(kind, { stdin: 'hi' });
  await piped.done;
  assert.equal(piped.records, [{ devNull: false, pipe: true }]);
});

t('stderr: the last 8 KiB are kept; lastLines gives the last five lines of it', async () => {
  const { done } = run(`for(let i=0;i<2000;i++)process.stderr.write('line '+i+'\\n');`);
  const exit = await done;
  assert.is(exit.stderr.length, 8 * 1024);
  assert.ok(exit.stderr.endsWith('line 1999\n'));
  assert.is(lastLines(exit.stderr), 'line 1995\nline 1996\nline 1997\nline 1998\nline 1999');
  assert.is(lastLines('  one\n'), 'one');
});

t('an abort during the turn stops the whole group; what came before is kept', async () => {
  const controller = new AbortController();
  const { records, done } = run(`console.log(JSON.stringify({pid:process.pid}));setInterval(()=>{},1000)`, { signal: controller.signal });
  await until(() => records.length === 1, 'the first record');
  controller.abort();
  const exit = await done;
  assert.is(exit.aborted, true);
  assert.is(exit.timedOut, false);
  assert.is(exit.signal, 'SIGTERM');
  assert.is(groupAlive(records[0]!.pid as number), false);
});

t('a signal aborted before the start: the CLI is stopped at once, the turn ends aborted', async () => {
  const controller = new AbortController();
  controller.abort();
  const exit = await run(`setInterval(()=>{},1000)`, { signal: controller.signal }).done;
  assert.is(exit.aborted, true);
  assert.ok(exit.signal === 'SIGTERM' || exit.signal === 'SIGKILL');
});

t('the deadline ends the group: timedOut', async () => {
  // The deadline leaves time for node to start and ignore SIGTERM even on a loaded machine
  // (at 300 ms, under a load of 20, SIGTERM came before the handler and ended it).
  const exit = await run(`process.on('SIGTERM',()=>{});setInterval(()=>{},1000)`, { timeoutMs: 3000, graceMs: 200 }).done;
  assert.is(exit.timedOut, true);
  assert.is(exit.aborted, false);
  assert.is(exit.signal, 'SIGKILL');
});

t('a handler that throws: no record after it, the error is thrown once the group is gone', async () => {
  let pid = 0;
  const seen: unknown[] = [];
  const done = runHeadlessProcess(
    node,
    ['-e', `console.log(JSON.stringify({pid:process.pid}));console.log('{"n":1}');console.log('{"n":2}')`],
    { cwd: process.cwd(), timeoutMs: 30_000 },
    {
      env: process.env,
      graceMs: 500,
      stdin: undefined,
      onRecord: (r) => {
        seen.push(r);
        if (typeof r.pid === 'number') pid = r.pid;
        if (r.n === 1) throw new Error('the handler broke');
      },
      cannotStart: (err) => err,
    },
  );
  try {
    await done;
    assert.unreachable('should have thrown');
  } catch (err) {
    assert.is((err as Error).message, 'the handler broke');
  }
  assert.equal(seen, [{ pid }, { n: 1 }]);
  assert.is(groupAlive(pid), false);
});

t("a program that cannot start: the driver's own error", async () => {
  try {
    await runHeadlessProcess(
      '/nonexistent/cli',
      [],
      { cwd: process.cwd(), timeoutMs: 1000 },
      {
        env: process.env,
        graceMs: 100,
        stdin: 'hello',
        onRecord: () => {},
        cannotStart: (err) => new Error(`cannot start: ${err.code}`),
      },
    );
    assert.unreachable('should have thrown');
  } catch (err) {
    assert.is((err as Error).message, 'cannot start: ENOENT');
  }
});

t('the leader exits while a helper it started still holds stdout: the group is swept, the output read', async () => {
  const helper = `process.on('SIGTERM',()=>{});setInterval(()=>{},1000)`;
  const script = `const c=require('child_process').spawn(process.execPath,['-e',${JSON.stringify(helper)}],{stdio:['ignore','inherit','inherit']});
    console.log(JSON.stringify({helper:c.pid,leader:process.pid}));process.stdout.write('{"type":"done"}',()=>process.exit(0));`;
  const { records, done } = run(script, { graceMs: 300 });
  const exit = await done;
  assert.is(exit.code, 0);
  assert.equal(records[1], { type: 'done' });
  assert.is(groupAlive(records[0]!.leader as number), false);
});

t('resumeHonoured: a resume runs in that session, a fork in a new one; nothing asked, nothing honoured', () => {
  assert.is(resumeHonoured({ resume: 'a' }, 'a'), true);
  assert.is(resumeHonoured({ resume: 'a' }, 'b'), false);
  assert.is(resumeHonoured({ resume: 'a', fork: true }, 'b'), true);
  assert.is(resumeHonoured({ resume: 'a', fork: true }, 'a'), false);
  assert.is(resumeHonoured({ resume: 'a' }, undefined), false);
  assert.is(resumeHonoured({}, 'a'), false);
});

t.run();
