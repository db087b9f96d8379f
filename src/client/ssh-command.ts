// How `--host [USER@]HOST` runs OpenSSH: the ssh argv (an array, never a local shell string)
// and the one remote command string, in which every word baton adds is quoted
// (shell-quote.ts). ssh is asked for a plain channel (no terminal, no escape character, no
// X11 or agent forwarding, none of the config's port forwardings: nothing baton-specific
// listens anywhere) and keepalives, so a connection that silently died is noticed.
// Pure: it spawns nothing (ssh-transport.ts does).

import { badInput } from '../errors.js';
import { remotePath, shellQuote } from './shell-quote.js';

/** ssh's keepalive: a probe every INTERVAL s of silence, the connection given up after COUNT unanswered (45 s). */
export const KEEPALIVE = { intervalS: 15, countMax: 3 } as const;

/** The remote baton by default: whatever `baton` is on the remote shell's PATH. */
export const DEFAULT_REMOTE_BATON = 'baton';

export interface RemoteOptions {
  /** `[USER@]HOST`, an alias of ~/.ssh/config, or `ssh://[USER@]HOST[:PORT]`. */
  host: string;
  /** `--remote-baton PATH`: the baton program on the host (quoted as one word; `~/` is its home). */
  remoteBaton?: string;
  /** BATON_REMOTE_COMMAND: shell text that runs baton on the host, given to its shell as written. */
  remoteCommand?: string;
}

/**
 * A destination ssh will take as a host and never as an option or two words: not empty,
 * no leading `-`, no whitespace or control character.
 */
export function checkHost(host: string): string {
  if (!host)
    throw badInput('--host needs a host: [USER@]HOST', 'for example `baton attach --host dev@build-box` (any name ssh knows, ~/.ssh/config aliases too)');
  if (host.startsWith('-') || /[\s\x00-\x1f\x7f]/.test(host)) {
    throw badInput(`"${host}" is not a host ssh can be given`, 'give [USER@]HOST (or ssh://[USER@]HOST:PORT), without spaces or a leading "-"');
  }
  return host;
}

/** How the host's shell is to run baton: --remote-baton, else BATON_REMOTE_COMMAND, else `baton`. */
export function remoteBatonText(opts: Pick<RemoteOptions, 'remoteBaton' | 'remoteCommand'>): string {
  if (opts.remoteBaton !== undefined) {
    if (!opts.remoteBaton) throw badInput('--remote-baton needs the path of baton on the host', 'for example --remote-baton ~/.local/bin/baton');
    return remotePath(opts.remoteBaton);
  }
  const text = opts.remoteCommand?.trim();
  return text ? text : DEFAULT_REMOTE_BATON;
}

/** The remote command: the remote baton, then `proxy -L NAME [--start]`, every added word quoted. */
export function proxyCommand(opts: Pick<RemoteOptions, 'remoteBaton' | 'remoteCommand'> & { name: string; start: boolean }): string {
  return `${remoteBatonText(opts)} proxy -L ${shellQuote(opts.name)}${opts.start ? ' --start' : ''}`;
}

/** ssh's arguments (after the program): a plain, quiet channel to HOST running `command`. */
export function sshArgs(host: string, command: string): string[] {
  return [
    '-T', // no terminal on the host: the channel carries frames, byte for byte
    '-e',
    'none', // no escape character: `~.` in a frame is data
    '-x', // no X11 forwarding
    '-a', // no agent forwarding: the proxy needs none, and the host gets no use of the keys
    '-o',
    'ClearAllForwardings=yes', // none of the config's LocalForward/RemoteForward: baton opens no port
    '-o',
    `ServerAliveInterval=${KEEPALIVE.intervalS}`,
    '-o',
    `ServerAliveCountMax=${KEEPALIVE.countMax}`,
    '--', // what follows is the destination and the command, never an option
    checkHost(host),
    command,
  ];
}
