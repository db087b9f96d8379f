// A client's connection to a baton server, and the handshake. On this machine: the server's
// Unix socket (started on demand: the first `baton` starts the server detached from its
// terminal, in a session and process group of its own, logging under BATON_HOME). On another
// (`--host`): ssh to a `baton proxy` there (ssh-transport.ts), which does the same on its
// side. Either way the same frames over a Transport. Used by every client command and by the
// proxy; it draws nothing (attach.ts relays a view) and never listens.

import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync } from 'node:fs';
import { createConnection, type Socket } from 'node:net';
import { join } from 'node:path';
import { BatonError, EXIT, noServer, type ExitCode } from '../errors.js';
import { packageRoot, packageVersion } from '../package-root.js';
import {
  decodeJson,
  encodeJson,
  FRAME,
  FrameReader,
  PROTOCOL_VERSION,
  versionMismatch,
  type Frame,
  type Hello,
  type Refusal,
  type Welcome,
} from '../server/protocol.js';
import { serverEnv } from '../server/server-malloc.js';
import { checkSocketFile, socketPlace, type SocketPlace } from '../server/socket-place.js';
import { makeDirs, resolveHome } from '../transcript/store-home.js';
import type { RemoteOptions } from './ssh-command.js';
import { sshTransport } from './ssh-transport.js';
import { socketTransport, type Transport } from './transport.js';

/** How long a just-started server has to answer on its socket. */
const START_MS = 20_000;

export interface Connection {
  transport: Transport;
  welcome: Welcome;
  /** Frames after the welcome, as they arrive (set before any can come). */
  onFrame(cb: (f: Frame) => void): void;
}

function connectOnce(path: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = createConnection(path);
    s.once('connect', () => {
      s.off('error', reject);
      resolve(s);
    });
    s.once('error', reject);
  });
}

/**
 * The server's young generation is held to 2 MB a half (V8's default grows it to 16 MB, and
 * it stays there long after the burst that grew it): the server lives for days with every
 * tab's scrollback, and after a flood of output it kept ~20 MB more resident for nothing.
 * 4 MB, then 2 MB, did not change the CPU a flood costs it measurably (`seq 1 1000000`,
 * server CPU from /proc over 4 alternating rounds at load 10-13: 4 MB 440/490/390/480 ms,
 * 2 MB 450/530/420/400 ms); 2 MB keeps 4 MB less committed (8 tabs: 79-83 -> 72-76 MB).
 * --expose-gc: the server collects a burst's garbage once its panes are quiet (tui/burst-gc.ts).
 */
const SERVER_NODE_FLAGS = ['--max-semi-space-size=2', '--expose-gc'];

/** Starts `baton server -L name` detached: its own session, output to its log file. */
export function startServer(name: string, env: NodeJS.ProcessEnv, pluginDirs: readonly string[] = []): string {
  const home = resolveHome(env);
  const logs = join(home, 'logs');
  // (Not mkdir -p: under /proc Node's recursive mkdir retries forever.)
  makeDirs(logs);
  const log = join(logs, `server-${name}.log`);
  const fd = openSync(log, 'a', 0o600);
  const cli = join(packageRoot(), 'dist/src/cli.js');
  if (!existsSync(cli))
    throw new BatonError(`baton's server program is not built (${cli} is missing)`, EXIT.internal, "run `npm run build` in baton's directory");
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, cli, ...pluginDirs.flatMap((d) => ['--plugins', d]), 'server', '-L', name], {
    detached: true,
    stdio: ['ignore', fd, fd],
    // (With baton's malloc setting, which the server keeps to itself: server-malloc.ts.)
    env: serverEnv(env),
    cwd: home,
  });
  child.unref();
  closeSync(fd);
  return log;
}

async function waitForServer(place: SocketPlace, log: string): Promise<Socket> {
  const deadline = Date.now() + START_MS;
  for (;;) {
    try {
      return await connectOnce(place.path);
    } catch (e) {
      if (Date.now() > deadline)
        throw new BatonError(`the baton server did not start within ${START_MS / 1000} s (${(e as Error).message})`, EXIT.internal, `see its log: ${log}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

export interface ServerSocketOptions {
  name: string;
  env: NodeJS.ProcessEnv;
  /** Start a server when none answers (baton, baton open); else no server is an error. */
  start: boolean;
  pluginDirs?: readonly string[];
}

/** The socket of this machine's server `name` (started when allowed); a BatonError when none runs and none may start. */
export async function openServerSocket(opts: ServerSocketOptions): Promise<Socket> {
  const place = socketPlace(opts.env, opts.name);
  try {
    if (existsSync(place.path)) checkSocketFile(place.path);
    return await connectOnce(place.path);
  } catch (e) {
    if (e instanceof BatonError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ECONNREFUSED') throw e;
    if (!opts.start)
      throw noServer(
        `no baton server is running${opts.name === 'default' ? '' : ` under the name ${opts.name}`}`,
        `run \`baton${opts.name === 'default' ? '' : ` -L ${opts.name}`}\` to start one (${place.path})`,
      );
    const log = startServer(opts.name, opts.env, opts.pluginDirs);
    return waitForServer(place, log);
  }
}

export interface ConnectOptions extends ServerSocketOptions {
  hello: Omit<Hello, 'protocol' | 'baton'>;
  /** The server of another machine, through OpenSSH; this machine's when absent. */
  remote?: RemoteOptions;
}

/** Connects and greets; throws a BatonError when no server runs (and none may start), the way there fails, or it refuses. */
export async function connect(opts: ConnectOptions): Promise<Connection> {
  const transport = opts.remote
    ? sshTransport({ ...opts.remote, name: opts.name, start: opts.start, env: opts.env, version: packageVersion() })
    : socketTransport(await openServerSocket(opts), opts.name);
  return handshake(transport, opts.hello, opts.env);
}

/** The advice for a refusal from a server on another host, which words it for its own machine. */
function remoteHint(host: string, r: Refusal): string | undefined {
  if (r.about === 'no-server') return `start one there: \`baton open --host ${host} [DIR]\` (DIR on ${host}, its home by default)`;
  if (r.about === 'version')
    return `run the same baton on both machines (here ${packageVersion()}): install this version on ${host}, or to restart its server with the one it has, \`baton kill-server --host ${host}\``;
  return r.hint;
}

/** HELLO, then the server's WELCOME (or its refusal) over any transport. */
export function handshake(transport: Transport, hello: Omit<Hello, 'protocol' | 'baton'>, env: NodeJS.ProcessEnv): Promise<Connection> {
  const reader = new FrameReader();
  let listener: ((f: Frame) => void) | undefined;
  const early: Frame[] = [];
  const where = transport.host ? ` (on ${transport.host})` : '';
  return new Promise<Connection>((resolve, reject) => {
    let greeted = false;
    let failed = false;
    const fail = (e: BatonError) => {
      if (failed || greeted) return;
      failed = true;
      transport.close();
      reject(e);
    };
    transport.onData((d: Buffer) => {
      if (failed) return;
      let frames: Frame[];
      try {
        frames = reader.push(d);
      } catch (e) {
        fail(new BatonError(`the ${transport.label} sent a bad frame (${(e as Error).message})`, EXIT.internal));
        return;
      }
      for (const f of frames) {
        if (greeted) {
          if (listener) listener(f);
          else early.push(f);
          continue;
        }
        if (f.type === FRAME.refused) {
          const r = decodeJson<Refusal>(f);
          const working = r.working?.length ? ` Tabs with agents at work: ${r.working.join(', ')}.` : '';
          const hint = transport.host ? remoteHint(transport.host, r) : r.hint;
          fail(new BatonError(r.message + where + working, r.code as ExitCode, hint));
          return;
        }
        if (f.type !== FRAME.welcome) {
          fail(new BatonError(`the ${transport.label} answered with frame ${f.type}, not a welcome`, EXIT.internal));
          return;
        }
        const w = decodeJson<Welcome>(f);
        const mismatch = versionMismatch(w, { protocol: PROTOCOL_VERSION, baton: packageVersion() }, 'client');
        if (mismatch) {
          fail(new BatonError(mismatch.message + where, mismatch.code as ExitCode, transport.host ? remoteHint(transport.host, mismatch) : mismatch.hint));
          return;
        }
        greeted = true;
        resolve({
          transport,
          welcome: w,
          onFrame(cb) {
            listener = cb;
            for (const e of early.splice(0)) cb(e);
          },
        });
      }
    });
    transport.onClose((end) => {
      fail(
        end.unanswered ??
          new BatonError(
            `the ${transport.label} closed the connection before saying who it is`,
            EXIT.lostServer,
            transport.host ? `see its log on ${transport.host}, under BATON_HOME/logs` : `see its log under ${resolveHome(env)}/logs`,
          ),
      );
    });
    transport.write(encodeJson(FRAME.hello, { ...hello, protocol: PROTOCOL_VERSION, baton: packageVersion() } satisfies Hello));
  });
}
