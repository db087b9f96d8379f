// `baton proxy` (hidden): what `baton attach --host` runs on the other machine through ssh.
// It writes PROXY_MARKER, reads the client's HELLO from stdin, connects to this machine's
// server (starting it with --start, as `baton` would), hands the HELLO on, and then copies
// bytes both ways until either side ends. It reads the HELLO for three things only: a client
// of another protocol version is refused here (before a server is started for nothing); a
// relative directory in an attach is taken from where ssh started the proxy (the remote
// home), and one that is no directory here is refused; and a failure to reach the server
// (none runs, a socket directory open to others) goes back as a REFUSED frame, so the
// client says it in its own terminal. Nothing is logged on stdout but frames, and the proxy
// never listens: it is one more client of the server's Unix socket.

import { statSync } from 'node:fs';
import type { Socket } from 'node:net';
import { isAbsolute, resolve } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { BatonError, EXIT } from '../errors.js';
import { packageVersion } from '../package-root.js';
import {
  decodeJson,
  encodeJson,
  FRAME,
  FrameReader,
  PROTOCOL_VERSION,
  PROXY_MARKER,
  versionMismatch,
  type Frame,
  type Hello,
  type Refusal,
} from '../server/protocol.js';
import { openServerSocket } from './connect.js';

export interface ProxyOptions {
  name: string;
  env: NodeJS.ProcessEnv;
  /** Start the server when none runs (`baton open --host`). */
  start: boolean;
  pluginDirs?: readonly string[];
  /** Where relative directories are taken from: the proxy's working directory. */
  cwd: string;
  input: Readable;
  output: Writable;
}

/** The first frame of `input` and whatever bytes came after it; undefined when input ended first. */
function readHello(input: Readable): Promise<{ frame: Frame; rest: Buffer } | undefined> {
  return new Promise((resolvePromise, reject) => {
    let held = Buffer.alloc(0);
    const onData = (d: Buffer) => {
      held = Buffer.concat([held, d]);
      let frames: Frame[];
      try {
        // A reader per attempt: only the first frame's bytes are taken, the rest is passed on as it came.
        frames = new FrameReader().push(held);
      } catch (e) {
        done();
        reject(e);
        return;
      }
      if (!frames.length) return;
      const frame = frames[0]!;
      done();
      resolvePromise({ frame, rest: held.subarray(5 + frame.payload.length) });
    };
    const onEnd = () => {
      done();
      resolvePromise(undefined);
    };
    const done = () => {
      input.off('data', onData);
      input.off('end', onEnd);
      input.pause();
    };
    input.on('data', onData);
    input.once('end', onEnd);
  });
}

/** Runs the proxy until either side ends; the exit code says how the handshake went. */
export async function proxy(opts: ProxyOptions): Promise<number> {
  const { input, output } = opts;
  output.on('error', () => undefined);
  output.write(PROXY_MARKER);
  const refuse = async (r: Refusal): Promise<number> => {
    await new Promise<void>((r2) => output.end(encodeJson(FRAME.refused, r), () => r2()));
    return r.code;
  };
  let first: Awaited<ReturnType<typeof readHello>>;
  try {
    first = await readHello(input);
  } catch (e) {
    return refuse({ message: `the baton proxy got a bad frame (${(e as Error).message})`, code: EXIT.internal });
  }
  if (!first) return EXIT.ok;
  if (first.frame.type !== FRAME.hello) return refuse({ message: 'the first frame was not a hello', code: EXIT.badInput });
  let hello: Hello;
  try {
    hello = decodeJson<Hello>(first.frame);
  } catch {
    return refuse({ message: 'the hello was not JSON', code: EXIT.badInput });
  }
  const mismatch = versionMismatch(
    { protocol: Number(hello.protocol), baton: String(hello.baton) },
    { protocol: PROTOCOL_VERSION, baton: packageVersion() },
    'server',
  );
  if (mismatch) return refuse(mismatch);
  if (hello.request?.kind === 'attach') {
    const dir = isAbsolute(hello.request.cwd ?? '') ? hello.request.cwd : resolve(opts.cwd, hello.request.cwd || '.');
    // (The client adds which host this is.)
    if (opts.start && !isDirectory(dir))
      return refuse({
        message: `${dir} is not a directory`,
        hint: 'give a directory of that machine (a relative one starts at the home directory there)',
        code: EXIT.badInput,
      });
    hello = { ...hello, request: { ...hello.request, cwd: dir } };
  }
  let socket: Socket;
  try {
    socket = await openServerSocket({ name: opts.name, env: opts.env, start: opts.start, ...(opts.pluginDirs ? { pluginDirs: opts.pluginDirs } : {}) });
  } catch (e) {
    if (!(e instanceof BatonError)) throw e;
    return refuse({
      message: e.message,
      ...(e.hint ? { hint: e.hint } : {}),
      code: e.exitCode,
      ...(e.exitCode === EXIT.noServer ? { about: 'no-server' as const } : {}),
    });
  }
  socket.write(encodeJson(FRAME.hello, hello));
  if (first.rest.length) socket.write(first.rest);
  return new Promise<number>((resolvePromise) => {
    socket.on('error', () => undefined);
    // The client went away (it detached, hung up, or ssh dropped): the server is told by the close, its tabs stay.
    input.on('end', () => socket.end());
    input.on('error', () => socket.destroy());
    input.pipe(socket, { end: false });
    socket.pipe(output);
    socket.once('close', () => {
      input.unpipe(socket);
      output.end(() => resolvePromise(EXIT.ok));
    });
    input.resume();
  });
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
