// The transcript log format: header, entry lines, damage tolerance (torn, corrupt,
// malformed, out of order), unknown kinds kept verbatim, chunked reading of long lines,
// and the buffered writer (sync points, torn-tail newline, deferred flush).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Transcript } from '../../src/transcript/transcript.js';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BatonError } from '../../src/errors.js';
import { formatProblem, parseLog, readLog } from '../../src/transcript/store-log.js';
import { LogWriter, createLog, entryLine } from '../../src/transcript/store-log-writer.js';
import type { Entry } from '../../src/transcript/types.js';
import { until } from '../helpers/wait.js';

process.umask(0);

const header = { format: 'baton-transcript' as const, version: 1, conversation: 'abcd1234', created: '2026-01-01T00:00:00.000Z' };
const sys = { type: 'system' as const };
const entry = (seq: number, text = `note ${seq}`): Entry => ({ kind: 'notice', text, seq, at: '2026-01-01T00:00:00.000Z', author: sys, segment: 's0' });
const lines = (...xs: unknown[]) => xs.map((x) => (typeof x === 'string' ? x : JSON.stringify(x))).join('\n') + '\n';

let dir = '';
const l = suite('store log');
l.before.each(() => {
  dir = mkdtempSync(join(tmpdir(), 'baton-log-'));
});
l.after.each(() => rmSync(dir, { recursive: true, force: true }));

l('a clean log: header, entries, no problems', () => {
  const r = parseLog(lines(header, entry(1), entry(2)));
  assert.equal(r.header, header);
  assert.equal(r.entries, [entry(1), entry(2)]);
  assert.equal(r.problems, []);
  assert.ok(r.endsWithNewline);
  assert.is(r.lines, 3);
});

l('a torn last line is ignored and reported; a complete last line without newline is kept', () => {
  const torn = parseLog(lines(header, entry(1)) + '{"kind":"notice","te');
  assert.equal(torn.entries, [entry(1)]);
  assert.equal(
    torn.problems.map((p) => [p.line, p.kind]),
    [[3, 'torn']],
  );
  assert.not.ok(torn.endsWithNewline);
  assert.match(formatProblem(torn.problems[0]!), /^line 3: torn last line/);

  const whole = parseLog(lines(header, entry(1)) + JSON.stringify(entry(2)));
  assert.equal(whole.entries, [entry(1), entry(2)]);
  assert.equal(whole.problems, []);
  assert.not.ok(whole.endsWithNewline, 'the writer still has to start a new line');
});

l('damaged lines in the middle are skipped and each reported with its line number', () => {
  const r = parseLog(
    lines(header, entry(1), '{oops', '[1,2]', { kind: 'notice', text: 'no seq', at: 'x', author: sys, segment: 's0' }, entry(1), entry(3), '', entry(4)),
  );
  assert.equal(
    r.entries.map((e) => e.seq),
    [1, 3, 4],
  );
  assert.equal(
    r.problems.map((p) => [p.line, p.kind]),
    [
      [3, 'corrupt'],
      [4, 'malformed'],
      [5, 'malformed'],
      [6, 'out-of-order'],
    ],
  );
  assert.match(r.problems[2]!.detail, /seq/);
});

l('unknown kinds are kept as unknown with the raw line, one problem per kind', () => {
  const a = { kind: 'image', seq: 2, at: 't', author: sys, segment: 's0', sha: 'x', checkpoint: 'abc' };
  const b = { kind: 'image', seq: 3, at: 't', author: sys, segment: 's0', sha: 'y' };
  const r = parseLog(lines(header, entry(1), a, b));
  const u = r.entries[1]!;
  assert.is(u.kind, 'unknown');
  if (u.kind === 'unknown') {
    assert.is(u.originalKind, 'image');
    assert.equal(u.raw, a);
  }
  assert.is(u.checkpoint, 'abc');
  assert.is(u.seq, 2);
  assert.equal(
    r.problems.map((p) => [p.line, p.kind]),
    [[3, 'unknown-kind']],
  );
  assert.match(r.problems[0]!.detail, /2 entries of kind "image"/);
  assert.is(entryLine(u), JSON.stringify(a), 'written back exactly as read');
});

l('a known kind missing a field it needs is shown as unknown rather than dropped or trusted', () => {
  const bad = { kind: 'tool_result', seq: 1, at: 't', author: sys, segment: 's0', toolCallId: 'c', toolName: 'Bash', isError: false };
  const r = parseLog(lines(header, bad));
  assert.is(r.entries[0]!.kind, 'unknown');
  assert.equal(
    r.problems.map((p) => p.kind),
    ['malformed'],
  );
  assert.match(r.problems[0]!.detail, /tool_result entry seq 1 has no valid output/);
});

l("a handoff's local model server is read back into its segment; one that is not {endpoint, api} strings is shown as unknown", () => {
  const local = { endpoint: 'http://127.0.0.1:11434', api: 'openai-chat' };
  const h = (seq: number, l: unknown) => ({
    kind: 'handoff',
    seq,
    at: 't',
    author: sys,
    segment: `s${seq}`,
    from: null,
    to: { harness: 'qwen', model: 'qwen3-coder' },
    newSegment: `s${seq}`,
    switchId: `sw${seq}`,
    mode: 'fresh',
    briefChars: 0,
    uptoSeq: 0,
    local: l,
  });
  const r = parseLog(lines(header, h(1, local), h(2, { endpoint: 5, api: 'openai-chat' })));
  assert.is(r.entries[0]!.kind, 'handoff');
  assert.equal(new Transcript({ id: 'c', entries: [r.entries[0]!] }).currentSegment?.local, local);
  assert.is(r.entries[1]!.kind, 'unknown');
  assert.match(r.problems[0]!.detail, /handoff entry seq 2 has no valid local/);
});

l('a missing header is reported and the lines still read; a newer version is refused', () => {
  const r = parseLog(lines(entry(1), entry(2)));
  assert.is(r.header, undefined);
  assert.is(r.entries.length, 2);
  assert.equal(
    r.problems.map((p) => [p.line, p.kind]),
    [[1, 'header']],
  );
  try {
    parseLog(lines({ ...header, version: 7 }, entry(1)), 'conversation abcd1234');
    assert.unreachable();
  } catch (e) {
    assert.instance(e, BatonError);
    assert.is((e as BatonError).exitCode, 2);
    assert.match((e as BatonError).message, /conversation abcd1234 was written by a newer baton \(transcript format version 7/);
  }
});

l('readLog reads lines longer than its chunk and across chunk borders like parseLog', () => {
  const big = 'y'.repeat(9 * 1024 * 1024 + 17); // spans three 4 MiB chunks
  const many = Array.from({ length: 20_000 }, (_, i) => entry(i + 3, `n${i} ${'é🌍'.repeat(i % 300)}`)); // multi-byte characters across chunk borders
  const text = lines(header, entry(1), entry(2, big), ...many) + '{"torn';
  const file = join(dir, 't.jsonl');
  writeFileSync(file, text);
  const a = readLog(file);
  const b = parseLog(text);
  assert.is(a.entries.length, 20_002);
  assert.is((a.entries[1] as { text: string }).text, big);
  assert.equal(a.entries, b.entries);
  assert.equal(a.problems, b.problems);
  assert.equal(
    a.problems.map((p) => p.kind),
    ['torn'],
  );
  assert.is(a.endsWithNewline, false);
});

l('text with multi-byte characters and line separators survives the round trip', () => {
  const file = join(dir, 't.jsonl');
  createLog(file, header);
  const w = new LogWriter(file, { endsWithNewline: true });
  const odd = entry(1, 'héllo 🌍 \u2028 \u2029 "quoted" \\ \n new line \r\n');
  w.append([odd], true);
  w.close();
  assert.equal(readLog(file).entries, [odd]);
});

l('createLog writes the header as a private file and refuses to overwrite', () => {
  const file = join(dir, 't.jsonl');
  createLog(file, header);
  assert.is(statSync(file).mode & 0o777, 0o600);
  assert.is(readFileSync(file, 'utf8'), JSON.stringify(header) + '\n');
  assert.throws(() => createLog(file, header), /EEXIST/);
});

l('the writer buffers until a sync point, then writes everything in order', async () => {
  const file = join(dir, 't.jsonl');
  createLog(file, header);
  const size0 = statSync(file).size;
  const w = new LogWriter(file, { endsWithNewline: true });
  w.append([entry(1), entry(2)], false);
  assert.is(statSync(file).size, size0, 'nothing written before a sync point or the end of the tick');
  w.append([entry(3)], true);
  assert.equal(
    readLog(file).entries.map((e) => e.seq),
    [1, 2, 3],
  );
  // Without a sync point, the buffer still reaches the file at the end of the event loop turn.
  w.append([entry(4)], false);
  await until(() => readLog(file).entries.length >= 4, 'the deferred flush', 5000);
  w.close();
  assert.throws(() => w.append([entry(5)], false), /closed/);
});

l('after a torn tail the first append starts on a new line', () => {
  const file = join(dir, 't.jsonl');
  createLog(file, header);
  appendFileSync(file, JSON.stringify(entry(1)) + '\n{"kind":"notice","text":"cu');
  const before = readLog(file);
  const w = new LogWriter(file, { endsWithNewline: before.endsWithNewline });
  w.append([entry(2)], true);
  w.append([entry(3)], true);
  w.close();
  const after = readLog(file);
  assert.equal(
    after.entries.map((e) => e.seq),
    [1, 2, 3],
  );
  assert.equal(
    after.problems.map((p) => [p.line, p.kind]),
    [[3, 'corrupt']],
  );
  assert.ok(readFileSync(file, 'utf8').endsWith(JSON.stringify(entry(3)) + '\n'));
});

l('a zero-length file is reported as missing its header (not silently an empty conversation)', () => {
  const file = join(dir, 'empty.jsonl');
  writeFileSync(file, '');
  const r = readLog(file);
  assert.ok(r.empty);
  assert.equal(r.entries, []);
  assert.equal(
    r.problems.map((p) => [p.line, p.kind, p.detail]),
    [[1, 'header', 'the file is empty: no baton-transcript header line and no entries']],
  );
  writeFileSync(join(dir, 'one.jsonl'), lines(header));
  assert.not.ok(readLog(join(dir, 'one.jsonl')).empty);
});

l('lines that are not UTF-8 are reported with their line number; the entry is kept as read', () => {
  const file = join(dir, 'bytes.jsonl');
  // Latin-1 bytes 0xFF 0xFE inside the text: valid JSON, not UTF-8.
  const line = Buffer.from(JSON.stringify(entry(2, 'note \u00ff\u00fe 2')), 'latin1');
  writeFileSync(file, Buffer.concat([Buffer.from(lines(header, entry(1))), line, Buffer.from('\n' + lines(entry(3)))]));
  const r = readLog(file);
  assert.equal(
    r.problems.map((p) => [p.line, p.kind]),
    [[3, 'encoding']],
  );
  assert.match(formatProblem(r.problems[0]!), /^line 3: not valid UTF-8/);
  assert.equal(
    r.entries.map((e) => e.seq),
    [1, 2, 3],
  );
  assert.ok(r.entries[1]!.kind === 'notice' && r.entries[1]!.text.includes('\uFFFD'));
  // A torn last line that is not UTF-8 either: both said.
  appendFileSync(file, Buffer.from([0x7b, 0xc3]));
  assert.equal(
    readLog(file).problems.map((p) => [p.line, p.kind]),
    [
      [3, 'encoding'],
      [5, 'encoding'],
      [5, 'torn'],
    ],
  );
});

l.run();
