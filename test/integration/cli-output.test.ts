// What the command line prints, whatever the data: strings from a transcript, a drop-in
// plugin or an agent CLI never reach the terminal with control characters (ESC, BEL, NUL,
// C1 such as 0x9b), checked on the bytes written; JSON output stays lossless (DEL and C1
// as \u escapes); and a conversation holding entries an older baton wrote with values of
// the wrong type (written here by hand) still shows and exports.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { main } from '../../src/cli.js';
import { bufferIo } from '../../src/commands/io.js';
import { createConversation } from '../../src/transcript/store.js';
import { builtBaton } from '../helpers/built-baton.js';

const ESC = '\u001b';
const BEL = '\u0007';
const NUL = '\u0000';
const CSI8 = '\u009b';
/** An OSC retitle, a clear screen, a NUL and an 8-bit CSI. */
const DIRTY = `${ESC}]0;pwned${BEL}${ESC}[2J${NUL}${CSI8}31m`;

let home = '';
let cwd = '';
const env = (extra: Record<string, string> = {}) => ({ ...process.env, BATON_HOME: home, XDG_CONFIG_HOME: join(home, 'config'), ...extra });

async function run(args: string[], extra: Record<string, string> = {}) {
  const io = bufferIo(env(extra), cwd);
  let code: number;
  try {
    code = await main(args, io);
  } catch (e) {
    assert.unreachable(`baton ${args.join(' ')} threw: ${(e as Error).stack}`);
    throw e;
  }
  return { code, out: io.stdout(), err: io.stderr() };
}

/** Asserts on the UTF-8 bytes a terminal would get: no ESC, BEL, NUL, other C0 but \n and \t, DEL, or C1. */
function assertClean(text: string, what: string) {
  const bytes = Buffer.from(text, 'utf8');
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    const c0 = b < 0x20 && b !== 0x0a && b !== 0x09;
    const c1 = b === 0xc2 && bytes[i + 1]! >= 0x80 && bytes[i + 1]! <= 0x9f;
    if (c0 || b === 0x7f || c1 || b === 0x9b)
      assert.unreachable(`${what}: control byte 0x${b.toString(16)} at ${i} in ${JSON.stringify(text.slice(Math.max(0, i - 30), i + 30))}`);
  }
}

const user = { type: 'user' as const, name: 'ana', device: 'box' };
const agentAuthor = (harness: string, model: string) => ({ type: 'agent', harness, model });
const entryLine = (seq: number, kind: string, fields: Record<string, unknown>, author: unknown = { type: 'system' }, segment = 's1') =>
  JSON.stringify({ seq, kind, at: '2026-01-01T00:00:00.000Z', author, segment, ...fields });

/** A conversation whose log holds, after a normal start, the given lines appended by hand. */
async function withLines(lines: (seq: number) => string[]) {
  const c = await createConversation(home, { cwd, title: 'by hand', user });
  c.transcript.startSegment({ harness: 'claude', model: 'opus', switchId: 'a' });
  c.transcript.apply({ type: 'user_text', text: 'hi' });
  await c.close();
  const next = c.transcript.lastSeq + 1;
  const added = lines(next);
  appendFileSync(join(c.dir, 'transcript.jsonl'), added.map((l) => l + '\n').join(''));
  return { id: c.id, dir: c.dir, added };
}

const t = suite('cli-output');
t.before.each(() => {
  home = mkdtempSync(join(tmpdir(), 'baton-cli-output-'));
  cwd = mkdtempSync(join(tmpdir(), 'baton-cli-output-cwd-'));
});
t.after.each(() => {
  rmSync(home, { recursive: true, force: true });
  rmSync(cwd, { recursive: true, force: true });
});

t('entries an older baton stored with values of the wrong type still show and export (md and jsonl)', async () => {
  const a = agentAuthor('claude', 'opus');
  const { id, added } = await withLines((n) => [
    entryLine(n, 'agent_text', { text: 'NaN' }, a),
    entryLine(n + 1, 'turn_end', { costUsd: 'NaN', usage: { inputTokens: '5' } }, a),
    entryLine(n + 2, 'agent_session', { harness: 'claude', agentSession: 42 }),
    entryLine(n + 3, 'tool_call', { toolCallId: 5, toolName: 'Bash', input: { command: 'ls' } }, a),
    entryLine(n + 4, 'agent_text', { text: {} }, a),
    entryLine(n + 5, 'approval', { decision: 'allow', detail: { why: 1 } }),
    entryLine(n + 6, 'turn_end', { costUsd: { usd: 1 } }, a),
  ]);
  const show = await run(['transcript', 'show', id]);
  assert.is(show.code, 0, show.err);
  assert.match(show.out, /turn end · cost unreadable/);
  assert.match(show.out, /approval: allow — \{"why":1\}/);
  assert.match(show.err, /has no valid agentSession; kept and shown as unknown/);
  const expanded = await run(['transcript', 'show', id, '--expand', '--all']);
  assert.is(expanded.code, 0, expanded.err);

  const md = await run(['transcript', 'export', id, '--format', 'md']);
  assert.is(md.code, 0, md.err);
  assert.match(md.out, /_turn end · cost unreadable_/);

  const jsonl = await run(['transcript', 'export', id, '--format', 'jsonl']);
  assert.is(jsonl.code, 0, jsonl.err);
  const lines = jsonl.out.trim().split('\n');
  // The export is faithful: the hand-written lines come out as they were stored.
  assert.equal(
    lines.slice(-added.length).map((l) => JSON.parse(l) as unknown),
    added.map((l) => JSON.parse(l) as unknown),
  );
});

t("transcript search: an imported entry's harness and model are printed without their control sequences", async () => {
  const file = join(cwd, 'export.jsonl');
  writeFileSync(
    file,
    [
      JSON.stringify({ format: 'baton-transcript', version: 1, conversation: 'abcd1234', created: '2026-01-01T00:00:00.000Z' }),
      entryLine(1, 'handoff', {
        from: null,
        to: { harness: 'claude', model: 'opus' },
        newSegment: 's1',
        switchId: 'a',
        mode: 'fresh',
        briefChars: 0,
        uptoSeq: 0,
      }),
      entryLine(2, 'agent_text', { text: 'the NEEDLE is here' }, agentAuthor(`claude${DIRTY}`, `opus${ESC}[2J${ESC}[H`)),
    ].join('\n') + '\n',
  );
  const imp = await run(['transcript', 'import', file, '--from', 'jsonl']);
  assert.is(imp.code, 0, imp.err);
  const r = await run(['transcript', 'search', 'needle']);
  assert.is(r.code, 0, r.err);
  assert.match(r.out, /#2 {2}claude \(opus\) {2}the NEEDLE is here/);
  assertClean(r.out, 'search stdout');
  assertClean(r.err, 'search stderr');
});

t("transcript show: an author's name and a load warning's unknown kind are printed without control characters", async () => {
  const { id } = await withLines((n) => [
    entryLine(n, 'user_message', { text: 'hello' }, { type: 'user', name: `mallory${DIRTY}`, device: `laptop${CSI8}2J` }),
    entryLine(n + 1, `image${ESC}[2J${BEL}${NUL}${CSI8}`, { sha: 'x' }),
  ]);
  const r = await run(['transcript', 'show', id]);
  assert.is(r.code, 0, r.err);
  assert.match(r.out, /mallory@laptop/);
  assert.match(r.err, /of kind "image\?\[2J\?\?\?" unknown to this baton/);
  assertClean(r.out, 'show stdout');
  assertClean(r.err, 'show stderr');
  // And as a real process: the bytes that reach the terminal.
  const p = spawnSync(process.execPath, [builtBaton(), 'transcript', 'show', id], { env: env(), encoding: 'buffer' });
  assert.is(p.status, 0, p.stderr.toString());
  assertClean(p.stdout.toString('utf8'), 'show stdout (process)');
  assertClean(p.stderr.toString('utf8'), 'show stderr (process)');
  assert.match(p.stdout.toString('utf8'), /mallory@laptop/);
});

t('export jsonl and --json output are lossless: DEL and C1 go out as \\u escapes', async () => {
  const c = await createConversation(home, { cwd, title: 'c1', user });
  c.transcript.startSegment({ harness: 'claude', model: 'opus', switchId: 'a' });
  const text = `a${CSI8}31mb${'\u007f'}c${ESC}[2Jd`;
  c.transcript.apply({ type: 'user_text', text });
  await c.close();
  const r = await run(['transcript', 'export', c.id]);
  assert.is(r.code, 0, r.err);
  assertClean(r.out, 'export stdout');
  const entries = r.out
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => JSON.parse(l) as { kind: string; text?: string });
  assert.is(entries.find((e) => e.kind === 'user_message')!.text, text, 'the text reads back exactly');
});

t("baton agents: a drop-in's title, version and error are printed without control characters (--json: escaped, lossless)", async () => {
  const dir = join(cwd, 'plugins');
  mkdirSync(dir);
  const title = `Evil${DIRTY} driver`;
  const version = `6.6.6${ESC}]0;retitled${BEL}${CSI8}2J`;
  writeFileSync(
    join(dir, 'evil.mjs'),
    `export default {
  name: 'evil',
  title: ${JSON.stringify(title)},
  families: [],
  capabilities: { resume: false, fork: false },
  detect: async () => ({ installed: true, version: ${JSON.stringify(version)}, loginHint: ${JSON.stringify(`log in${BEL}${NUL}`)} }),
  launch: ({ cwd }) => ({ command: 'true', args: [], env: {}, cwd }),
};
`,
  );
  writeFileSync(join(dir, `bad${CSI8}.mjs`), `throw new Error(${JSON.stringify(`boom${DIRTY}`)});\n`);
  // Only this drop-in matters: the built-in CLIs are looked for on an empty PATH.
  const extra = { PATH: join(cwd, 'no-bin') };
  const r = await run(['agents', '--plugins', dir], extra);
  assert.is(r.code, 0, r.err);
  assert.match(r.out, /evil +Evil driver — installed 6\.6\.6/);
  assertClean(r.out, 'agents stdout');
  assertClean(r.err, 'agents stderr');
  assert.match(r.err, /boom/);
  const j = await run(['agents', '--json', '--plugins', dir], extra);
  assert.is(j.code, 0, j.err);
  assertClean(j.out, 'agents --json stdout');
  const row = (JSON.parse(j.out) as { name: string; title: string; version?: string }[]).find((x) => x.name === 'evil')!;
  assert.is(row.title, title);
  assert.is(row.version, version);
});

t('a message yargs builds from the command line is printed without the controls it quotes', async () => {
  const r = await run(['transcript', 'list', `--x${ESC}]0;pwned${BEL}`]);
  assert.is(r.code, 2);
  assert.match(r.err, /Unknown argument/);
  assertClean(r.err, 'error');
});

t.run();
