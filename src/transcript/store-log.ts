// The transcript log on disk: `transcript.jsonl`, a header line then one Entry per line,
// append-only. Reading tolerates a torn last line and corrupt lines anywhere, keeps
// entries of kinds this version does not know, and reports every problem with its line
// number. Writing buffers lines and fsyncs only at sync points (turn ends, handoffs).
// It must never rewrite, truncate or reorder the file: damage is reported, not repaired.

import { closeSync, fdatasyncSync, openSync, readSync, writeSync } from 'node:fs';
import { BatonError, EXIT } from '../errors.js';
import { openPrivate, printable } from './store-home.js';
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

export type ProblemKind = 'torn' | 'corrupt' | 'malformed' | 'out-of-order' | 'unknown-kind' | 'header' | 'meta';

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
      buf.copy(buf, 0, last + 1, end);
      have = end - last - 1;
    }
    if (have) parser.line(buf.toString('utf8', 0, have), false);
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

  line(text: string, terminated: boolean): void {
    const no = ++this.lineNo;
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
      this.problems.push({ line: u.first, kind: 'unknown-kind', detail: `${many} of kind "${printable(kind)}" unknown to this baton, kept and shown as unknown` });
    }
    this.problems.sort((a, b) => a.line - b.line);
    return { header: this.header, entries: this.entries, problems: this.problems, endsWithNewline, lines: this.lineNo };
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
  tool_call: [['toolCallId', isStr], ['toolName', isStr]],
  tool_result: [['toolCallId', isStr], ['toolName', isStr], ['output', isStr], ['isError', (v) => typeof v === 'boolean']],
  approval: [['decision', isStr]],
  handoff: [['to', (v) => isRecord(v) && isStr(v.harness) && isStr(v.model)], ['newSegment', isStr], ['switchId', isStr], ['uptoSeq', isNum]],
  turn_end: [],
  notice: [['text', isStr]],
  error: [['text', isStr]],
  agent_session: [['harness', isStr], ['agentSession', isStr]],
  cursor: [['harness', isStr], ['agentSession', (v) => v === null || isStr(v)], ['deliveredSeq', isNum]],
  reset: [['toSeq', isNum]],
};

function badField(kind: string, o: Record<string, unknown>): string | undefined {
  for (const [field, ok] of REQUIRED[kind] ?? []) if (!ok(o[field])) return field;
  return undefined;
}

/** The line an entry is stored as. An unknown entry goes back out exactly as it was read. */
export function entryLine(e: Entry): string {
  return JSON.stringify(e.kind === 'unknown' ? e.raw : e);
}

export const headerLine = (h: LogHeader) => JSON.stringify(h);

/** Creates a new log holding only the header, durably. Fails if the file exists. */
export function createLog(path: string, header: LogHeader): void {
  const fd = openPrivate(path, 'wx');
  try {
    writeAll(fd, Buffer.from(headerLine(header) + '\n'));
    fdatasyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

const FLUSH_BYTES = 1024 * 1024;

/**
 * Appends entry lines to an existing log. Lines are buffered and written in one go at the
 * next sync point, when the buffer grows past 1 MiB, or at the end of the current event
 * loop turn, so a streamed turn costs a few writes instead of one per entry, and a
 * crash of baton (not of the machine) loses nothing that was handed over.
 */
export class LogWriter {
  private fd: number | undefined;
  private pending: string[] = [];
  private pendingBytes = 0;
  private scheduled = false;
  private needsNewline: boolean;
  private failure: unknown;

  constructor(path: string, opts: { endsWithNewline: boolean }) {
    this.fd = openPrivate(path, 'a');
    this.needsNewline = !opts.endsWithNewline;
  }

  get closed() {
    return this.fd === undefined;
  }

  append(entries: readonly Entry[], sync: boolean): void {
    this.check();
    for (const e of entries) {
      const line = entryLine(e) + '\n';
      this.pending.push(line);
      this.pendingBytes += line.length;
    }
    if (sync) this.sync();
    else if (this.pendingBytes >= FLUSH_BYTES) this.flush();
    else if (!this.scheduled && this.pending.length) {
      this.scheduled = true;
      setImmediate(() => {
        this.scheduled = false;
        try {
          this.flush();
        } catch (e) {
          // Nobody is on the stack to catch it; the next append, sync or close rethrows it.
          this.failure = e;
        }
      });
    }
  }

  /** Hands buffered lines to the OS (survives a crash of this process, not of the machine). */
  flush(): void {
    if (this.fd === undefined || !this.pending.length) return;
    let text = this.pending.join('');
    // After a torn last line the next entry must not be glued onto the fragment.
    if (this.needsNewline) text = '\n' + text;
    this.pending = [];
    this.pendingBytes = 0;
    writeAll(this.fd, Buffer.from(text));
    this.needsNewline = false;
  }

  /** Flushes and fsyncs: everything appended so far is on disk when this returns. */
  sync(): void {
    this.check();
    this.flush();
    if (this.fd !== undefined) fdatasyncSync(this.fd);
  }

  close(): void {
    if (this.fd === undefined) return;
    try {
      this.sync();
    } finally {
      closeSync(this.fd);
      this.fd = undefined;
    }
  }

  private check() {
    if (this.failure !== undefined) {
      const f = this.failure;
      this.failure = undefined;
      throw f;
    }
    if (this.fd === undefined) throw new Error('transcript log is closed');
  }
}

function writeAll(fd: number, buf: Buffer) {
  let off = 0;
  while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off);
}
