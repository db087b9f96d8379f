// The transcript log on disk: `transcript.jsonl`, a header line then one Entry per line,
// append-only. Reading tolerates a torn last line and corrupt lines anywhere, keeps
// entries of kinds this version does not know, and reports every problem with its line
// number, lines that are not UTF-8 and a file left empty included. Writing (buffered,
// fsynced at sync points) is store-log-writer.ts's, which takes the header's shape from here.
// It must never rewrite, truncate or reorder the file: damage is reported, not repaired.

import { isUtf8 } from 'node:buffer';
import { closeSync, openSync, readSync } from 'node:fs';
import { BatonError, EXIT } from '../errors.js';
import { printable } from './store-home.js';
import { KNOWN_KINDS } from './types.js';
import type { Entry } from './types.js';

export const FORMAT = 'baton-transcript';
export const FORMAT_VERSION = 1;

export interface LogHeader {
  format: typeof FORMAT;
  version: number;
  conversation: string;
  /** ISO-8601 time the log was created. */
  created: string;
  [extra: string]: unknown;
}

export type ProblemKind = 'torn' | 'corrupt' | 'malformed' | 'out-of-order' | 'unknown-kind' | 'header' | 'encoding' | 'meta';

/** Something found while loading; `line` is 1-based in transcript.jsonl (0 when not about a line). */
export interface LoadProblem {
  line: number;
  kind: ProblemKind;
  detail: string;
}

export interface LogRead {
  header: LogHeader | undefined;
  entries: Entry[];
  problems: LoadProblem[];
  /** False when the file does not end with a newline: the next append must start a new line. */
  endsWithNewline: boolean;
  /** Number of lines, including the header and damaged ones. */
  lines: number;
  /** No line at all but blank ones (a zero-length file): not even the header. */
  empty: boolean;
}

/** One line per problem, ready for the CLI to print under the file name. */
export const formatProblem = (p: LoadProblem) => (p.line ? `line ${p.line}: ${p.detail}` : p.detail);

const CHUNK = 4 * 1024 * 1024;
const NL = 0x0a;

/**
 * Reads a transcript log. Streams the file in chunks, so its size is bounded by memory for
 * the entries, not by string length. Each chunk is decoded once, up to its last newline,
 * and lines are sliced out of that string (no per-line decoding call); the bytes after
 * the last newline move to the front of the buffer for the next read.
 */
export function readLog(path: string, label = path): LogRead {
  const parser = new LineParser(label);
  const fd = openSync(path, 'r');
  try {
    let buf = Buffer.allocUnsafe(CHUNK);
    let have = 0;
    for (;;) {
      if (have === buf.length) {
        // One line longer than the buffer: grow it.
        const bigger = Buffer.allocUnsafe(buf.length * 2);
        buf.copy(bigger, 0, 0, have);
        buf = bigger;
      }
      const n = readSync(fd, buf, have, buf.length - have, null);
      if (n === 0) break;
      const end = have + n;
      const last = buf.lastIndexOf(NL, end - 1);
      if (last === -1) {
        have = end;
        continue;
      }
      if (isUtf8(buf.subarray(0, last))) {
        const text = buf.toString('utf8', 0, last);
        for (let start = 0; ; ) {
          const nl = text.indexOf('\n', start);
          if (nl === -1) {
            parser.line(text.slice(start), true);
            break;
          }
          parser.line(text.slice(start, nl), true);
          start = nl + 1;
        }
      } else {
        // Rare: find the lines that are not UTF-8, one by one, to report each.
        for (let start = 0; start <= last; ) {
          let nl = buf.indexOf(NL, start);
          if (nl === -1 || nl > last) nl = last;
          parser.line(buf.toString('utf8', start, nl), true, !isUtf8(buf.subarray(start, nl)));
          start = nl + 1;
        }
      }
      buf.copy(buf, 0, last + 1, end);
      have = end - last - 1;
    }
    if (have) parser.line(buf.toString('utf8', 0, have), false, !isUtf8(buf.subarray(0, have)));
    return parser.result(have === 0);
  } finally {
    closeSync(fd);
  }
}

/** Parses already-read text (an import source, a test). Same rules as readLog. */
export function parseLog(text: string, label = 'input'): LogRead {
  const parser = new LineParser(label);
  let start = 0;
  for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', start)) {
    parser.line(text.slice(start, nl), true);
    start = nl + 1;
  }
  const tail = start < text.length;
  if (tail) parser.line(text.slice(start), false);
  return parser.result(!tail);
}

class LineParser {
  private lineNo = 0;
  private header: LogHeader | undefined;
  private sawFirst = false;
  private lastSeq = 0;
  private readonly entries: Entry[] = [];
  private readonly problems: LoadProblem[] = [];
  private readonly unknownKinds = new Map<string, { first: number; count: number }>();

  constructor(private readonly label: string) {}

  /** One line; `badUtf8`: its bytes were not UTF-8 and `text` holds U+FFFD for them. */
  line(text: string, terminated: boolean, badUtf8 = false): void {
    const no = ++this.lineNo;
    if (badUtf8) {
      this.problems.push({
        line: no,
        kind: 'encoding',
        detail: 'not valid UTF-8: the bytes that are not are read as U+FFFD (the file keeps them as they are)',
      });
    }
    if (text.trim() === '') return;
    let obj: unknown;
    try {
      obj = JSON.parse(text);
    } catch {
      if (!terminated) {
        this.problems.push({ line: no, kind: 'torn', detail: `torn last line (${text.length} characters; an interrupted write), ignored` });
      } else {
        this.problems.push({ line: no, kind: 'corrupt', detail: 'not valid JSON, skipped (the line stays in the file)' });
      }
      this.sawFirst = true;
      return;
    }
    if (!this.sawFirst) {
      this.sawFirst = true;
      if (isRecord(obj) && obj.format === FORMAT) {
        this.acceptHeader(obj, no);
        return;
      }
      this.problems.push({ line: no, kind: 'header', detail: 'no baton-transcript header line; reading the lines as entries' });
    }
    if (isRecord(obj) && obj.format === FORMAT) {
      this.problems.push({ line: no, kind: 'malformed', detail: 'a second header line, skipped' });
      return;
    }
    this.entry(obj, no);
  }

  result(endsWithNewline: boolean): LogRead {
    for (const [kind, u] of this.unknownKinds) {
      const many = u.count > 1 ? `${u.count} entries` : 'an entry';
      this.problems.push({
        line: u.first,
        kind: 'unknown-kind',
        detail: `${many} of kind "${printable(kind)}" unknown to this baton, kept and shown as unknown`,
      });
    }
    if (!this.sawFirst) this.problems.push({ line: 1, kind: 'header', detail: 'the file is empty: no baton-transcript header line and no entries' });
    // Stable: problems of one line keep the order they were found in.
    this.problems.sort((a, b) => a.line - b.line);
    return { header: this.header, entries: this.entries, problems: this.problems, endsWithNewline, lines: this.lineNo, empty: !this.sawFirst };
  }

  private acceptHeader(obj: Record<string, unknown>, no: number) {
    const v = obj.version;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) {
      this.problems.push({ line: no, kind: 'header', detail: `header has no valid version (${JSON.stringify(v)}); reading as version ${FORMAT_VERSION}` });
    } else if (v > FORMAT_VERSION) {
      throw new BatonError(
        `${this.label} was written by a newer baton (transcript format version ${v}; this baton reads version ${FORMAT_VERSION})`,
        EXIT.badInput,
        'upgrade baton to open this conversation',
      );
    }
    this.header = obj as LogHeader;
  }

  private entry(obj: unknown, no: number) {
    if (!isRecord(obj)) {
      this.problems.push({ line: no, kind: 'malformed', detail: 'not an entry object, skipped' });
      return;
    }
    const missing = missingCommon(obj);
    if (missing) {
      this.problems.push({ line: no, kind: 'malformed', detail: `entry without a valid ${missing}, skipped` });
      return;
    }
    const seq = obj.seq as number;
    if (seq <= this.lastSeq) {
      this.problems.push({ line: no, kind: 'out-of-order', detail: `entry seq ${seq} after seq ${this.lastSeq}, skipped` });
      return;
    }
    this.lastSeq = seq;
    const kind = obj.kind as string;
    if (KNOWN_KINDS.has(kind)) {
      const bad = badField(kind, obj);
      if (!bad) {
        this.entries.push(obj as unknown as Entry);
        return;
      }
      this.problems.push({ line: no, kind: 'malformed', detail: `${kind} entry seq ${seq} has no valid ${bad}; kept and shown as unknown` });
    } else {
      const u = this.unknownKinds.get(kind);
      if (u) u.count++;
      else this.unknownKinds.set(kind, { first: no, count: 1 });
    }
    this.entries.push(asUnknown(obj));
  }
}

/** An entry kept verbatim: the raw object is what gets written back if it is ever copied (import). */
function asUnknown(obj: Record<string, unknown>): Entry {
  const e = {
    kind: 'unknown',
    originalKind: obj.kind as string,
    raw: obj,
    seq: obj.seq as number,
    at: obj.at as string,
    author: obj.author,
    segment: obj.segment as string,
  } as Entry;
  if (typeof obj.checkpoint === 'string') e.checkpoint = obj.checkpoint;
  return e;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStr = (v: unknown) => typeof v === 'string';
const isNum = (v: unknown) => typeof v === 'number' && Number.isFinite(v);

function missingCommon(o: Record<string, unknown>): string | undefined {
  if (typeof o.seq !== 'number' || !Number.isInteger(o.seq) || o.seq < 1) return 'seq';
  if (!isStr(o.kind) || o.kind === '') return 'kind';
  if (!isStr(o.at)) return 'at';
  if (!isRecord(o.author) || !isStr(o.author.type)) return 'author';
  if (!isStr(o.segment)) return 'segment';
  return undefined;
}

// The fields code downstream relies on, per kind. An entry missing one is kept as unknown
// rather than dropped or allowed to crash a view.
const REQUIRED: Record<string, Array<[string, (v: unknown) => boolean]>> = {
  user_message: [['text', isStr]],
  agent_text: [['text', isStr]],
  reasoning: [['text', isStr]],
  tool_call: [
    ['toolCallId', isStr],
    ['toolName', isStr],
  ],
  tool_result: [
    ['toolCallId', isStr],
    ['toolName', isStr],
    ['output', isStr],
    ['isError', (v) => typeof v === 'boolean'],
  ],
  approval: [['decision', isStr]],
  handoff: [
    ['to', (v) => isRecord(v) && isStr(v.harness) && isStr(v.model)],
    ['newSegment', isStr],
    ['switchId', isStr],
    ['uptoSeq', isNum],
    ['account', optStr],
    ['fromAccount', optStr],
    ['local', optLocal],
    ['fromLocal', optLocal],
  ],
  turn_end: [],
  summary: [
    ['text', isStr],
    ['fromSeq', isNum],
    ['toSeq', isNum],
  ],
  notice: [['text', isStr]],
  error: [['text', isStr]],
  agent_session: [
    ['harness', isStr],
    ['agentSession', isStr],
  ],
  cursor: [
    ['harness', isStr],
    ['agentSession', (v) => v === null || isStr(v)],
    ['deliveredSeq', isNum],
    ['account', optStr],
  ],
  reset: [['toSeq', isNum]],
};

function optStr(v: unknown): boolean {
  return v === undefined || isStr(v);
}

/** An optional local server reference: `{ endpoint, api }`, both strings. */
function optLocal(v: unknown): boolean {
  return v === undefined || (isRecord(v) && isStr(v.endpoint) && isStr(v.api));
}

function badField(kind: string, o: Record<string, unknown>): string | undefined {
  for (const [field, ok] of REQUIRED[kind] ?? []) if (!ok(o[field])) return field;
  return undefined;
}
