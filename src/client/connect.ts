// A client's connection to a baton server: the socket (started on demand: the first `baton`
// starts the server detached from its terminal, in a session and process group of its own,
// logging under BATON_HOME), and the handshake. Used by every client command; it draws
// nothing (attach.ts relays a view) and never listens.

import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync } from 'node:fs';
import { createConnection, type Socket } from 'node:net';
import { join } from 'node:path';
import { BatonError, EXIT, noServer, type ExitCode } from '../errors.js';
import { packageRoot, packageVersion } from '../package-root.js';
import { decodeJson, encodeJson, FRAME, FrameReader, PROTOCOL_VERSION, versionMismatch, type Frame, type Hello, type Refusal, type Welcome } from '../server/protocol.js';
import { checkSocketFile, socketPlace, type SocketPlace } from '../server/socket-place.js';
import { makeDirs, resolveHome } from '../transcript/store-home.js';

/** How long a just-started server has to answer on its socket. */
const START_MS = 20_000;

export interface Connection {
  socket: Socket;
  welcome: Welcome;
  place: SocketPlace;
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

/** Starts `baton server -L name` detached: its own session, output to its log file. */
export function startServer(name: string, env: NodeJS.ProcessEnv, pluginDirs: readonly string[] = []): string {
  const home = resolveHome(env);
  const logs = join(home, 'logs');
  // (Not mkdir -p: under /proc Node's recursive mkdir retries forever.)
  makeDirs(logs);
  const log = join(logs, `server-${name}.log`);
  const fd = openSync(log, 'a', 0o600);
  const cli = join(packageRoot(), 'dist/src/cli.js');
  if (!existsSync(cli)) throw new BatonError(`baton's server program is not built (${cli} is missing)`, EXIT.internal, 'run `npm run build` in baton\'s directory');
  const child = spawn(process.execPath, [cli, ...pluginDirs.flatMap((d) => ['--plugins', d]), 'server', '-L', name], {
    detached: true,
    stdio: ['ignore', fd, fd],
    env,
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
      if (Date.now() > deadline) throw new BatonError(`the baton server did not start within ${START_MS / 1000} s (${(e as Error).message})`, EXIT.internal, `see its log: ${log}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

export interface ConnectOptions {
  name: string;
  env: NodeJS.ProcessEnv;
  hello: Omit<Hello, 'protocol' | 'baton'>;
  /** Start a server when none answers (baton, baton open); else no server is an error. */
  start: boolean;
  pluginDirs?: readonly string[];
}

/** Connects and greets; throws a BatonError when no server runs (and none may start) or it refuses. */
export async function connect(opts: ConnectOptions): Promise<Connection> {
  const place = socketPlace(opts.env, opts.name);
  let socket: Socket;
  try {
    if (existsSync(place.path)) checkSocketFile(place.path);
    socket = await connectOnce(place.path);
  } catch (e) {
    if (e instanceof BatonError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ECONNREFUSED') throw e;
    if (!opts.start) throw noServer(`no baton server is running${opts.name === 'default' ? '' : ` under the name ${opts.name}`}`, `run \`baton${opts.name === 'default' ? '' : ` -L ${opts.name}`}\` to start one (${place.path})`);
    const log = startServer(opts.name, opts.env, opts.pluginDirs);
    socket = await waitForServer(place, log);
  }
  const reader = new FrameReader();
  let listener: ((f: Frame) => void) | undefined;
  const early: Frame[] = [];
  const welcome = await new Promise<Welcome>((resolve, reject) => {
    let greeted = false;
    socket.on('data', (d: Buffer) => {
      let frames: Frame[];
      try {
        frames = reader.push(d);
      } catch (e) {
        socket.destroy();
        reject(new BatonError(`the baton server sent a bad frame (${(e as Error).message})`, EXIT.internal));
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
          reject(new BatonError(r.message + working, r.code as ExitCode, r.hint));
          return;
        }
        if (f.type !== FRAME.welcome) {
          reject(new BatonError(`the baton server answered with frame ${f.type}, not a welcome`, EXIT.internal));
          return;
        }
        const w = decodeJson<Welcome>(f);
        const mismatch = versionMismatch(w, { protocol: PROTOCOL_VERSION, baton: packageVersion() }, 'client');
        if (mismatch) {
          socket.destroy();
          reject(new BatonError(mismatch.message, mismatch.code as ExitCode, mismatch.hint));
          return;
        }
        greeted = true;
        resolve(w);
      }
    });
    socket.once('error', (e) => reject(new BatonError(`lost the baton server: ${e.message}`, EXIT.lostServer)));
    socket.once('close', () => {
      if (!greeted) reject(new BatonError('the baton server closed the connection before saying who it is', EXIT.lostServer, `see its log under ${resolveHome(opts.env)}/logs`));
    });
    socket.write(encodeJson(FRAME.hello, { ...opts.hello, protocol: PROTOCOL_VERSION, baton: packageVersion() } satisfies Hello));
  });
  return {
    socket,
    welcome,
    place,
    onFrame(cb) {
      listener = cb;
      for (const f of early.splice(0)) cb(f);
    },
  };
}
