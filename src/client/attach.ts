// `baton`, `baton open DIR`, `baton attach`: the terminal the user sits at, relayed to the
// server's view of its tabs, on this machine or on another through ssh (`--host`: the same
// relay over another transport). Keys and pastes go to the server as they are typed (raw mode),
// the size goes with every SIGWINCH, and what the server draws is written to the terminal as
// it comes; baton's tabs run in the server, so a hangup, a kill -9 or C-b d here ends only
// this client. On the way out the terminal is given back as it was found (raw mode off, the
// main screen, the cursor shown) and the reason is said on it.

import { userAuthor } from '../conversation/user.js';
import { BatonError, EXIT } from '../errors.js';
import { decodeJson, encodeFrame, encodeJson, FRAME, type ExitNotice, type Hello } from '../server/protocol.js';
import { connect } from './connect.js';
import { quietClientGc } from './quiet-gc.js';
import type { RemoteOptions } from './ssh-command.js';

/** What the client leaves the terminal as: main screen, no paste or focus reports, cursor and keys as normal. */
const RESTORE = '\x1b[?2004l\x1b[?1004l\x1b[?1l\x1b>\x1b[0 q\x1b[?25h\x1b[?1049l';

export interface AttachOptions {
  name: string;
  env: NodeJS.ProcessEnv;
  cwd: string;
  tab?: string;
  readOnly?: boolean;
  /** Start a server when none runs (baton, baton open); `baton attach` does not. */
  start: boolean;
  pluginDirs?: readonly string[];
  /** The server of another machine, through OpenSSH. */
  remote?: RemoteOptions;
  input?: NodeJS.ReadStream;
  output?: NodeJS.WriteStream;
  /** Where the reason for leaving is said (after the screen is given back). */
  say: (line: string) => void;
}

/** Who attaches, what to, and the terminal's size and colours. */
function helloFor(opts: AttachOptions, output: NodeJS.WriteStream): Omit<Hello, 'protocol' | 'baton'> {
  const user = userAuthor(opts.env);
  return {
    user: { name: user.name, device: user.device },
    request: { kind: 'attach', cwd: opts.cwd, ...(opts.tab !== undefined ? { tab: opts.tab } : {}), ...(opts.readOnly ? { readOnly: true } : {}) },
    cols: output.columns ?? 80,
    rows: output.rows ?? 24,
    ...(opts.env.TERM ? { term: opts.env.TERM } : {}),
    ...(opts.env.COLORTERM ? { colorterm: opts.env.COLORTERM } : {}),
    ...(opts.env.TERM_PROGRAM ? { termProgram: opts.env.TERM_PROGRAM } : {}),
    ...(opts.env.LC_TERMINAL ? { lcTerminal: opts.env.LC_TERMINAL } : {}),
    ...(opts.env.VTE_VERSION ? { vteVersion: opts.env.VTE_VERSION } : {}),
  };
}

/** The line said once the screen is given back, for the server's reason to let this client go. */
function leaving(n: ExitNotice, label: string, again: string): string {
  const words: Record<ExitNotice['reason'], string> = {
    detached: `[detached from ${label}; the tabs keep running: ${again}]`,
    quit: `[baton quit]${n.message ? `\nbaton: ${n.message}` : ''}`,
    'server-exit': `[the baton server ended${n.message ? `: ${n.message}` : ''}]`,
    replaced: '[detached: another client took this view]',
  };
  return words[n.reason] ?? `[detached: ${n.reason}]`;
}

export async function attach(opts: AttachOptions): Promise<number> {
  const input = opts.input ?? process.stdin;
  const output = opts.output ?? process.stdout;
  if (!input.isTTY || !output.isTTY)
    throw new BatonError(
      'baton needs a terminal',
      EXIT.badInput,
      'run it in an interactive terminal (not through a pipe); `baton ls` lists the tabs from anywhere',
    );
  quietClientGc();
  const conn = await connect({
    name: opts.name,
    env: opts.env,
    hello: helloFor(opts, output),
    start: opts.start,
    ...(opts.pluginDirs ? { pluginDirs: opts.pluginDirs } : {}),
    ...(opts.remote ? { remote: opts.remote } : {}),
  });
  const { transport } = conn;
  const host = transport.host;
  const again = `baton attach${opts.name === 'default' ? '' : ` -L ${opts.name}`}${host ? ` --host ${host}` : ''}`;
  return new Promise<number>((resolve) => {
    let done = false;
    let terminalGone = false;
    const onInput = (d: Buffer | string) => {
      // The size first: a key typed after a resize must reach the program after its pane
      // was resized, and Node hands over the bytes before the SIGWINCH when both wait.
      // Reading the size again emits 'resize' (so the RESIZE frame goes first) if it changed.
      const out = output as NodeJS.WriteStream & { _refreshSize?: () => void };
      try {
        out._refreshSize?.();
      } catch {
        // The terminal is gone (a hangup): its own handler says so.
      }
      transport.write(encodeFrame(FRAME.input, typeof d === 'string' ? Buffer.from(d, 'utf8') : d));
    };
    const onResize = () => transport.write(encodeJson(FRAME.resize, { cols: output.columns ?? 80, rows: output.rows ?? 24 }));
    // A hangup: the terminal is gone, so nothing is written to it; the server keeps everything.
    const onHup = () => {
      terminalGone = true;
      finish(EXIT.ok, undefined);
    };
    const onTerm = () => finish(EXIT.ok, `[detached from baton: SIGTERM; the tabs keep running: ${again}]`);
    const finish = (code: number, line: string | undefined) => {
      if (done) return;
      done = true;
      input.off('data', onInput);
      output.off('resize', onResize);
      process.off('SIGHUP', onHup);
      process.off('SIGTERM', onTerm);
      transport.close();
      if (!terminalGone) {
        output.write(RESTORE);
        try {
          input.setRawMode(false);
        } catch {
          // The terminal went away meanwhile.
        }
        if (line) opts.say(line);
      }
      input.pause();
      resolve(code);
    };
    // The view is drawn on the alternate screen, as a full-screen program's is: switched to
    // before the first frame (which may be waiting already) is written.
    output.write('\x1b[?1049h');
    conn.onFrame((f) => {
      if (f.type === FRAME.output) output.write(f.payload);
      else if (f.type === FRAME.exit) {
        finish(EXIT.ok, leaving(decodeJson<ExitNotice>(f), transport.label, again));
      }
    });
    transport.onClose((end) =>
      finish(
        EXIT.lostServer,
        end.lost && host
          ? `[${end.lost}; the tabs there keep running: ${again}]`
          : `[lost the ${transport.label}: it ended without a word; its log is under BATON_HOME/logs${host ? ` on ${host}` : ''}]`,
      ),
    );
    input.setRawMode(true);
    input.on('data', onInput);
    input.resume();
    output.on('resize', onResize);
    process.on('SIGHUP', onHup);
    process.on('SIGTERM', onTerm);
  });
}
