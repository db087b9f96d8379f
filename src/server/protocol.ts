// The wire between a baton client and its server (docs/protocol.md): frames of
//   [length: u32 big-endian][type: u8][payload: length - 1 bytes]
// over a Unix socket (or an ssh channel carrying one). A payload is JSON for messages and
// raw bytes for terminal input and output. The first frame each way is the handshake
// (HELLO, then WELCOME or REFUSED); both carry PROTOCOL_VERSION, and a client and server of
// different versions refuse each other with words that say what to do. Pure: it encodes and
// decodes, and owns no socket.

/** Bumped whenever a frame's meaning changes; a mismatch is refused, never guessed around. */
export const PROTOCOL_VERSION = 1;
/** Larger frames are a broken or hostile peer: the connection is closed. */
export const MAX_FRAME_BYTES = 16 * 1024 * 1024;
/**
 * Over ssh, the first bytes `baton proxy` writes, before any frame: whatever the remote
 * shell printed ahead of them (a chatty startup file) is not baton's and is skipped, and a
 * stream without them means no baton proxy ever started there.
 */
export const PROXY_MARKER = Buffer.from('\0baton-proxy\0', 'latin1');

export const FRAME = {
  // client -> server
  hello: 1,
  input: 2,
  resize: 3,
  detach: 4,
  // server -> client
  welcome: 65,
  output: 66,
  exit: 67,
  refused: 68,
  reply: 69,
} as const;
export type FrameType = (typeof FRAME)[keyof typeof FRAME];

export interface User {
  name: string;
  device: string;
}

/** What a client asks for when it connects. */
export type ClientRequest = { kind: 'attach'; tab?: string; readOnly?: boolean; cwd: string; newIfEmpty?: boolean } | { kind: 'ls' } | { kind: 'kill-server' };

export interface Hello {
  protocol: number;
  baton: string;
  user: User;
  request: ClientRequest;
  /** The client's terminal: its size and what it can draw. */
  cols: number;
  rows: number;
  term?: string;
  colorterm?: string;
  /** What else the terminal says of itself (TERM_PROGRAM, LC_TERMINAL, VTE_VERSION): which desktop notification it shows. */
  termProgram?: string;
  lcTerminal?: string;
  vteVersion?: string;
}

export interface Welcome {
  protocol: number;
  baton: string;
  pid: number;
}

export interface Refusal {
  message: string;
  hint?: string;
  /** baton's exit code for the client to end with. */
  code: number;
  /** Tabs whose agents are working or waiting for the user (`1:Claude Code`): what a restart would end. */
  working?: string[];
  /** What kind of refusal, so a client can word its advice (a client on another host names that host). */
  about?: 'version' | 'no-server';
}

export interface ExitNotice {
  reason: 'detached' | 'quit' | 'server-exit' | 'replaced';
  message?: string;
}

export interface Frame {
  type: number;
  payload: Buffer;
}

export function encodeFrame(type: FrameType, payload: Buffer | string = Buffer.alloc(0)): Buffer {
  const body = typeof payload === 'string' ? Buffer.from(payload, 'utf8') : payload;
  const head = Buffer.allocUnsafe(5);
  head.writeUInt32BE(body.length + 1, 0);
  head.writeUInt8(type, 4);
  return Buffer.concat([head, body]);
}

export function encodeJson(type: FrameType, value: unknown): Buffer {
  return encodeFrame(type, JSON.stringify(value));
}

export function decodeJson<T>(f: Frame): T {
  return JSON.parse(f.payload.toString('utf8')) as T;
}

/**
 * Turns a byte stream into frames, however it was cut. A frame over MAX_FRAME_BYTES, or a
 * zero length, is an error (the caller closes the connection).
 */
export class FrameReader {
  private chunks: Buffer[] = [];
  private held = 0;

  /** Feeds bytes; returns the frames they complete. */
  push(data: Buffer): Frame[] {
    this.chunks.push(data);
    this.held += data.length;
    const out: Frame[] = [];
    for (;;) {
      if (this.held < 4) break;
      const head = this.peek(4);
      const length = head.readUInt32BE(0);
      if (length === 0 || length > MAX_FRAME_BYTES) throw new Error(`a frame of ${length} bytes (at most ${MAX_FRAME_BYTES})`);
      if (this.held < 4 + length) break;
      const whole = this.take(4 + length);
      out.push({ type: whole.readUInt8(4), payload: whole.subarray(5) });
    }
    return out;
  }

  private peek(n: number): Buffer {
    if (this.chunks[0]!.length >= n) return this.chunks[0]!.subarray(0, n);
    const all = Buffer.concat(this.chunks);
    this.chunks = [all];
    return all.subarray(0, n);
  }

  private take(n: number): Buffer {
    const all = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks);
    this.chunks = all.length > n ? [all.subarray(n)] : [];
    this.held -= n;
    return all.subarray(0, n);
  }
}

/** Why a peer's handshake is refused, or undefined when it may go on. */
export function versionMismatch(
  theirs: { protocol: number; baton: string },
  ours: { protocol: number; baton: string },
  side: 'client' | 'server',
): Refusal | undefined {
  if (theirs.protocol === ours.protocol) return undefined;
  const other = side === 'server' ? 'client' : 'server';
  return {
    message: `this baton ${side} (${ours.baton}, protocol ${ours.protocol}) cannot talk to the ${other} (${theirs.baton}, protocol ${theirs.protocol})`,
    hint:
      side === 'server'
        ? 'run the same baton version on both ends; to upgrade the server, `baton kill-server` (it asks first when agents are working) and run baton again'
        : 'run the same baton version on both ends, or restart the server with this version: `baton kill-server`, then baton',
    code: 5,
    about: 'version',
  };
}
