// What went wrong on the way to another host, in words that say what to do: from how ssh
// ended (its exit code or signal, the last of what it printed on stderr, the error of
// spawning it) and whether the remote baton proxy had started. ssh itself fails with exit
// 255 (host key, login, name, network, keepalive timeout); anything else is the remote
// command's code: 127 is the remote shell's "command not found", 126 "cannot execute".
// Pure: it reads nothing and spawns nothing.

import { BatonError, EXIT } from '../errors.js';
import { stripControls } from '../transcript/sanitize.js';

export interface SshEnd {
  host: string;
  /** What the remote shell was told to run baton with (`baton`, a path, BATON_REMOTE_COMMAND). */
  remoteBaton: string;
  code: number | null;
  signal: string | null;
  stderr: string;
  /** The proxy's marker was seen: a baton ran on the host. */
  proxyStarted: boolean;
  /** Spawning ssh failed (ENOENT: no ssh). */
  spawnError?: NodeJS.ErrnoException;
}

/** ssh's own words worth quoting: the last line that is not a routine notice. */
export function sshSaid(stderr: string): string {
  const lines = stripControls(stderr)
    .split(/\r?\n/)
    .map((l) => l.trim())
    // Not ssh's routine notice, nor the hint line under a remote baton's own message.
    .filter((l) => l && !/^Warning: Permanently added /.test(l) && !/^\*+$/.test(l) && !/^hint: /.test(l));
  const last = lines.at(-1) ?? '';
  return last.length > 300 ? `${last.slice(0, 300)}…` : last;
}

function quoteSsh(stderr: string, fallback: string): string {
  const said = sshSaid(stderr);
  return said ? `${fallback} (ssh: ${said})` : fallback;
}

/** The error for ssh that could not be started at all. */
export function noSshError(e: NodeJS.ErrnoException): BatonError {
  if (e.code === 'ENOENT') {
    return new BatonError(
      'ssh is not installed: --host reaches another machine through OpenSSH, and there is no `ssh` on the PATH',
      EXIT.noSsh,
      "install OpenSSH's client (Debian, Ubuntu: apt install openssh-client; Fedora: dnf install openssh-clients; macOS has it), or put ssh on the PATH",
    );
  }
  return new BatonError(`ssh could not be started: ${e.message}`, EXIT.noSsh, 'check that `ssh -V` runs in this shell');
}

/**
 * Why ssh failed before it had connected (exit 255), or undefined when it did connect and the
 * failure is the remote command's.
 */
function connectFailure(end: SshEnd): BatonError | undefined {
  if (end.code !== 255) return undefined;
  const { host, stderr } = end;
  const check = `check that \`ssh ${host} true\` works here`;
  if (/Host key verification failed|REMOTE HOST IDENTIFICATION HAS CHANGED|host key for .* has changed|No .*host key is known/i.test(stderr)) {
    return new BatonError(
      quoteSsh(stderr, `ssh could not verify the host key of ${host}`),
      EXIT.sshFailed,
      `connect once with \`ssh ${host}\` to check and accept its key; baton never accepts a host key for you`,
    );
  }
  if (/Permission denied|Too many authentication failures|Authentication failed|no matching (host key|key exchange|cipher)/i.test(stderr)) {
    return new BatonError(quoteSsh(stderr, `ssh could not log in to ${host}`), EXIT.sshFailed, `${check} (the user, the key, the agent)`);
  }
  if (/Could not resolve hostname|Name or service not known|nodename nor servname/i.test(stderr)) {
    return new BatonError(quoteSsh(stderr, `ssh does not know the host ${host}`), EXIT.sshFailed, 'check the name, or give its ~/.ssh/config alias');
  }
  if (/Timeout, server .* not responding/i.test(stderr)) {
    return new BatonError(
      quoteSsh(stderr, `the connection to ${host} stopped answering ssh's keepalives`),
      EXIT.sshFailed,
      'the network went away; reattach when it is back',
    );
  }
  if (
    /Connection refused|Connection timed out|timed out|No route to host|Network is unreachable|Connection reset|Connection closed|closed by remote host/i.test(
      stderr,
    )
  ) {
    return new BatonError(quoteSsh(stderr, `ssh could not reach ${host}`), EXIT.sshFailed, check);
  }
  return new BatonError(quoteSsh(stderr, `ssh failed to connect to ${host} (exit 255)`), EXIT.sshFailed, check);
}

/**
 * The error for an ssh that ended before the server's welcome: no ssh, ssh's own failure, no
 * usable baton on the host, or a proxy that ended without a word.
 */
export function handshakeFailure(end: SshEnd, ourVersion: string): BatonError {
  if (end.spawnError) return noSshError(end.spawnError);
  const ssh = connectFailure(end);
  if (ssh) return ssh;
  const { host, stderr } = end;
  const name = `\`${end.remoteBaton}\``;
  const install = `install baton ${ourVersion} on ${host}, or say where it is: --remote-baton PATH, or BATON_REMOTE_COMMAND (the shell ssh runs is not a login shell, and its PATH is often shorter)`;
  if (end.signal) return new BatonError(`ssh to ${host} was ended by ${end.signal}`, EXIT.sshFailed);
  if (!end.proxyStarted) {
    if (end.code === 127) return new BatonError(quoteSsh(stderr, `${host} has no baton: its shell did not find ${name}`), EXIT.noRemoteBaton, install);
    if (end.code === 126) return new BatonError(quoteSsh(stderr, `${name} cannot be run on ${host}`), EXIT.noRemoteBaton, install);
    return new BatonError(
      quoteSsh(stderr, `${name} on ${host} did not start a baton proxy (exit ${end.code ?? '?'})`),
      EXIT.noRemoteBaton,
      `a baton older than \`baton proxy\` cannot be reached with --host: ${install}`,
    );
  }
  return new BatonError(
    quoteSsh(stderr, `the baton proxy on ${host} ended before the server answered (exit ${end.code ?? '?'})`),
    EXIT.lostServer,
    `see the server's log on ${host}, under its BATON_HOME/logs`,
  );
}

/** Why an attached client lost the server on another host; undefined when the proxy ended normally (the server closed). */
export function lostConnection(end: SshEnd): string | undefined {
  if (end.spawnError) return noSshError(end.spawnError).message;
  const ssh = connectFailure(end);
  if (ssh) return ssh.message.replace(/^ssh could not reach/, 'lost the connection to');
  if (end.signal) return `ssh to ${end.host} was ended by ${end.signal}`;
  if (end.code !== 0) return quoteSsh(end.stderr, `the baton proxy on ${end.host} ended (exit ${end.code ?? '?'})`);
  return undefined;
}
