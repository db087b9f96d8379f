// The command line, run in-process (src/cli.ts main) and, for exit codes, as a real process.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, writeFileSync, rmSync, readdirSync, readFileSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { main } from '../../src/cli.js';
import { bufferIo } from '../../src/commands/io.js';
import { createConversation, openConversation, readConversation } from '../../src/transcript/store.js';
import { builtBaton } from '../helpers/built-baton.js';

const user = { type: 'user' as const, name: 'ana', device: 'box' };
let home = '';
let cwd = '';

async function run(args: string[], extraEnv: Record<string, string> = {}) {
  const io = bufferIo({ ...process.env, BATON_HOME: home, XDG_CONFIG_HOME: join(home, 'config'), ...extraEnv }, cwd);
  const code = await main(args, io);
  return { code, out: io.stdout(), err: io.stderr() };
}

/** A conversation claude -> codex with a marker, a tool call and control sequences in agent output. */
async function seed(title = 'fix the parser') {
  const c = await createConversation(home, { cwd, title, user });
  const t = c.transcript;
  t.startSegment({ harness: 'claude', model: 'opus', switchId: 'a' });
  t.apply({ type: 'user_text', text: 'Please fix the PARSER-MARKER bug' });
  t.apply({ type: 'tool_call', toolCallId: 't1', toolName: 'Bash', input: { command: 'npm test' } });
  t.apply({ type: 'tool_result', toolCallId: 't1', output: 'ok\x1b[31m red \x1b]0;evil-title\x07done' });
  t.apply({ type: 'agent_text', text: 'Fixed it.\x1b[2J' });
  t.apply({ type: 'turn_end' });
  t.startSegment({ harness: 'codex', model: 'gpt-5', switchId: 'b', briefChars: 10 });
  t.apply({ type: 'user_text', text: 'now add tests' });
  t.apply({ type: 'agent_text', text: 'Added.' });
  t.apply({ type: 'turn_end' });
  await c.close();
  return c.id;
}

const cli = suite('cli');
cli.before(() => {
  home = mkdtempSync(join(tmpdir(), 'baton-cli-'));
  cwd = mkdtempSync(join(tmpdir(), 'baton-cwd-'));
});
cli.after(() => {
  rmSync(home, { recursive: true, force: true });
  rmSync(cwd, { recursive: true, force: true });
});

cli('--help lists the commands; --version prints the package version', async () => {
  const h = await run(['--help']);
  assert.is(h.code, 0);
  assert.match(h.out, /baton transcript/);
  assert.match(h.out, /baton brief <id>/);
  const v = await run(['--version']);
  assert.is(v.out.trim(), JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version);
});

cli('list shows conversations with their title and last agent', async () => {
  const id = await seed('list me');
  const r = await run(['transcript', 'list']);
  assert.is(r.code, 0);
  const line = r.out.split('\n').find((l) => l.startsWith(id));
  assert.ok(line, r.out);
  assert.match(line!, /list me/);
});

cli('show renders authors and the handoff divider, stripped of control sequences', async () => {
  const id = await seed();
  const r = await run(['transcript', 'show', id]);
  assert.is(r.code, 0, r.err);
  assert.match(r.out, /ana@box/);
  assert.match(r.out, /claude \(opus\)/);
  assert.match(r.out, /Switched this conversation from claude to codex/);
  assert.not.match(r.out, /\x1b/);
  assert.not.match(r.out, /\x07/);
  assert.match(r.out, /Fixed it\./);
});

cli('search is case-insensitive across conversations and prints id, seq, author, snippet', async () => {
  const a = await seed('one');
  const b = await seed('two');
  const r = await run(['transcript', 'search', 'parser-marker']);
  assert.is(r.code, 0);
  const lines = r.out.trim().split('\n');
  assert.ok(
    lines.some((l) => l.startsWith(`${a}  #2  ana@box`)),
    r.out,
  );
  assert.ok(
    lines.some((l) => l.startsWith(`${b}  #2  ana@box`)),
    r.out,
  );
  assert.match(r.out, /PARSER-MARKER/);
});

cli('export jsonl then import it: a new conversation with the same entries', async () => {
  const id = await seed('round trip');
  const ex = await run(['transcript', 'export', id, '--format', 'jsonl']);
  assert.is(ex.code, 0);
  const file = join(cwd, 'export.jsonl');
  writeFileSync(file, ex.out);
  const im = await run(['transcript', 'import', '--from', 'jsonl', file]);
  assert.is(im.code, 0, im.err);
  const newId = /as conversation (\S+)/.exec(im.out)![1]!;
  assert.is.not(newId, id);
  const a = await run(['transcript', 'show', id]);
  const b = await run(['transcript', 'show', newId]);
  assert.is(a.out.split('\n').slice(1).join('\n'), b.out.split('\n').slice(1).join('\n'));
});

cli('export md is a readable document with the divider', async () => {
  const id = await seed('md');
  const r = await run(['transcript', 'export', id, '--format', 'md']);
  assert.match(r.out, /^# md/);
  assert.match(r.out, /_Switched this conversation from claude to codex_/);
});

cli('brief prints the brief with the last instruction; --upto cuts it', async () => {
  const id = await seed();
  const r = await run(['brief', id]);
  assert.is(r.code, 0, r.err);
  assert.match(r.out, /now add tests/);
  assert.match(r.out, /PARSER-MARKER/);
  const cut = await run(['brief', id, '--upto', '5']);
  assert.is(cut.code, 0, cut.err);
  assert.match(cut.out, /PARSER-MARKER/);
  assert.not.match(cut.out, /now add tests/);
  const again = await run(['brief', id]);
  assert.is(again.out, r.out, 'deterministic');
});

cli('the brief of a fork made with --agent names the agent that ran before the fork as the previous one', async () => {
  const id = await seed('fork then brief');
  const f = await run(['fork', id, '--at', '10', '--agent', 'gemini', '--json']);
  assert.is(f.code, 0, f.err);
  const fork = JSON.parse(f.out) as { id: string; agent: { harness: string } };
  assert.is(fork.agent.harness, 'gemini');
  const b = await run(['brief', fork.id, '--to', 'gemini']);
  assert.is(b.code, 0, b.err);
  assert.match(b.out, /now continued by you, Gemini CLI \([^)]*\); the previous agent was Codex CLI \(gpt-5\)\./);
});

cli('bad input: unknown id, bad seq, unreadable file, bad budget -> one line + hint, exit 2 (9 for no such entry), nothing written', async () => {
  const id = await seed();
  const before = readdirSync(join(home, 'conversations')).sort();
  const cases: [string[], number][] = [
    [['transcript', 'show', 'zzzzzzzz'], 2],
    [['brief', id, '--upto', '999'], 9],
    [['brief', id, '--upto', '0'], 9],
    [['brief', id, '--upto', 'abc'], 2],
    [['brief', id, '--upto', '2.5'], 2],
    [['brief', id, '--max-chars', 'lots'], 2],
    [['transcript', 'import', '--from', 'jsonl', join(cwd, 'missing.jsonl')], 2],
  ];
  for (const [args, code] of cases) {
    const r = await run(args);
    assert.is(r.code, code, `${args.join(' ')}: ${r.err}`);
    assert.match(r.err, /^baton: /, args.join(' '));
    assert.is(r.out, '', args.join(' '));
  }
  assert.equal(readdirSync(join(home, 'conversations')).sort(), before);
});

cli('an out-of-range budget is clamped with a warning', async () => {
  const id = await seed();
  const r = await run(['brief', id, '--max-chars', '50']);
  assert.is(r.code, 0);
  assert.match(r.err, /below the minimum 1024/);
  assert.ok(r.out.length <= 1024 + 1);
});

cli('as a real process: exit codes and one clear line', () => {
  const env = { ...process.env, BATON_HOME: home };
  const r = spawnSync(process.execPath, [builtBaton(), 'transcript', 'show', 'nope'], { env, encoding: 'utf8' });
  assert.is(r.status, 2);
  assert.is(r.stderr.split('\n')[0], 'baton: no conversation nope');
  assert.not.match(r.stderr, /at .*\.(ts|js):\d+/, 'no stack trace');
});

cli('a reader that stops early (| head) ends the output quietly: exit 0, no EPIPE stack trace', async () => {
  await seed('one');
  await seed('two');
  const env = { ...process.env, BATON_HOME: home, XDG_CONFIG_HOME: join(home, 'config') };
  const child = spawn(process.execPath, [builtBaton(), 'transcript', 'list'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  // The reader is gone before baton writes its first line: every write meets a closed pipe.
  child.stdout!.destroy();
  let err = '';
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d));
  const code = await new Promise<number | null>((r) => child.once('close', (c) => r(c)));
  assert.is(code, 0, err);
  assert.is(err, '', 'nothing on stderr');
});

cli('a zero-length transcript file is reported as missing its header; the first write gives it one', async () => {
  const id = await seed('emptied');
  truncateSync(join(home, 'conversations', id, 'transcript.jsonl'), 0);
  const r = await run(['transcript', 'show', id]);
  assert.is(r.code, 0, r.err);
  assert.match(r.err, new RegExp(`^baton: warning: conversation ${id}: line 1: the file is empty: no baton-transcript header line and no entries$`, 'm'));

  const w = await openConversation(home, id, { write: true, user });
  assert.equal(
    w.problems.map((p) => p.kind),
    ['header'],
  );
  w.transcript.startSegment({ harness: 'claude', model: 'opus', switchId: 'z' });
  w.transcript.apply({ type: 'user_text', text: 'after the empty file' });
  await w.close();
  const again = await readConversation(home, id);
  assert.equal(again.problems, [], 'no warning on every later load');
  assert.is(again.transcript.entries.length, 2);
  await again.close();
  assert.match(
    readFileSync(join(home, 'conversations', id, 'transcript.jsonl'), 'utf8'),
    new RegExp(`^\\{"format":"baton-transcript","version":1,"conversation":"${id}"`),
  );
});

cli('invalid UTF-8 in a transcript file is reported by show and export, not silently replaced', async () => {
  const id = await seed('bytes');
  const path = join(home, 'conversations', id, 'transcript.jsonl');
  const lines = readFileSync(path).toString('latin1').split('\n');
  const at = lines.findIndex((l) => l.includes('PARSER-MARKER'));
  lines[at] = lines[at]!.replace('PARSER-MARKER', 'PARSER-\xff\xfe-MARKER');
  writeFileSync(path, Buffer.from(lines.join('\n'), 'latin1'));
  const warning = new RegExp(`^baton: warning: conversation ${id}: line ${at + 1}: not valid UTF-8`, 'm');
  for (const args of [
    ['transcript', 'show', id],
    ['transcript', 'export', id],
    ['transcript', 'export', id, '--format', 'md'],
  ]) {
    const r = await run(args);
    assert.is(r.code, 0, r.err);
    assert.match(r.err, warning, args.join(' '));
  }
});

cli.run();
