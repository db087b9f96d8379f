// A client's stream to a baton server on another machine: OpenSSH (`ssh`, spawned with an
// argv array) runs `baton proxy` on the host, which connects to (or starts) the server there
// and copies bytes both ways; here, ssh's stdin and stdout carry the same frames a Unix
// socket would. Nothing listens on the network but the host's own sshd.
// The proxy's marker (PROXY_MARKER) comes before its frames: what the remote shell printed
// ahead of it is skipped, and its absence tells "no baton there" from "baton refused".
// ssh's stderr is kept (the last few KiB), never shown raw while a view is drawn: its words
// go into the message that says why the connection failed or was lost (ssh-failure.ts).
// ssh prompts (a passphrase, a password, a new host key) on /dev/tty, before the view starts.

import { spawn } from 'node:child_process';
import { PROXY_MARKER } from '../server/protocol.js';
import { proxyCommand, remoteBatonText, sshArgs, type RemoteOptions } from './ssh-command.js';
import { handshakeFailure, lostConnection, type SshEnd } from './ssh-failure.js';
import type { Transport, TransportEnd } from './transport.js';

/** How much of ssh's stderr is kept for the message (its last lines are what matter). */
const STDERR_KEEP = 8 * 1024;

export interface SshTransportOptions extends RemoteOptions {
  /** The server's name on the host (-L). */
  name: string;
  /** Start the host's server when none runs (baton open --host). */
  start: boolean;
  env: NodeJS.ProcessEnv;
  /** This baton's version, for the advice to install the same one there. */
  version: string;
  /** The ssh program (default `ssh`, found on the PATH of `env`). */
  ssh?: string;
}

export function sshTransport(opts: SshTransportOptions): Transport {
  const remoteBaton = remoteBatonText(opts);
  const args = sshArgs(opts.host, proxyCommand(opts));
  const child = spawn(opts.ssh ?? 'ssh', args, { stdio: ['pipe', 'pipe', 'pipe'], env: opts.env });
  let stderr = '';
  let spawnError: NodeJS.ErrnoException | undefined;
  let proxyStarted = false;
  let before = Buffer.alloc(0);
  let listener: ((d: Buffer) => void) | undefined;
  const early: Buffer[] = [];
  let closing = false;
  let ended: TransportEnd | undefined;
  const closeListeners: ((end: TransportEnd) => void)[] = [];

  const deliver = (d: Buffer) => {
    if (!d.length) return;
    if (listener) listener(d);
    else early.push(d);
  };
  child.stdout.on('data', (d: Buffer) => {
    if (proxyStarted) return deliver(d);
    before = Buffer.concat([before, d]);
    const at = before.indexOf(PROXY_MARKER);
    if (at < 0) {
      // Only a marker cut between two reads need be kept; the shell's chatter is dropped.
      before = before.subarray(Math.max(0, before.length - (PROXY_MARKER.length - 1)));
      return;
    }
    proxyStarted = true;
    const rest = before.subarray(at + PROXY_MARKER.length);
    before = Buffer.alloc(0);
    deliver(rest);
  });
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (s: string) => {
    stderr = (stderr + s).slice(-STDERR_KEEP);
  });
  // ssh gone (or never there) while a frame is on its way: the close says why.
  child.stdin.on('error', () => undefined);
  const finish = (code: number | null, signal: NodeJS.Signals | null) => {
    if (ended) return;
    const end: SshEnd = { host: opts.host, remoteBaton, code, signal, stderr, proxyStarted, ...(spawnError ? { spawnError } : {}) };
    ended = closing ? { unanswered: undefined, lost: undefined } : { unanswered: handshakeFailure(end, opts.version), lost: lostConnection(end) };
    for (const cb of closeListeners.splice(0)) cb(ended);
  };
  child.on('error', (e: NodeJS.ErrnoException) => {
    spawnError ??= e;
    // A child that never started emits no 'close' of its own.
    if (child.pid === undefined) finish(null, null);
  });
  child.on('close', finish);

  return {
    label: `baton server ${opts.name} on ${opts.host}`,
    host: opts.host,
    write: (data) => {
      if (!child.stdin.destroyed) child.stdin.write(data);
    },
    onData: (cb) => {
      listener = cb;
      for (const d of early.splice(0)) cb(d);
    },
    onClose: (cb) => {
      if (ended) queueMicrotask(() => cb(ended!));
      else closeListeners.push(cb);
    },
    close: () => {
      if (closing) return;
      closing = true;
      child.stdin.destroy();
      if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) child.kill('SIGTERM');
    },
  };
}
