// src/client/ssh-failure.ts: how ssh ended, in words that say what to do, with the exit code
// a script can tell apart: no ssh (14); ssh's own failure, exit 255 (15): the host key, the
// login, the name, the network, the keepalive timeout, each said with ssh's last line; no
// usable baton on the host (16): the remote shell's 127 and 126, and a baton that ran but
// started no proxy (too old); a proxy that ended before the server answered (13). The
// stderr quoted is one line, without control characters or ssh's routine notices.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { handshakeFailure, lostConnection, noSshError, sshSaid, type SshEnd } from '../../src/client/ssh-failure.js';

const end = (over: Partial<SshEnd>): SshEnd => ({ host: 'box', remoteBaton: 'baton', code: 255, signal: null, stderr: '', proxyStarted: false, ...over });

test('no ssh: exit 14 and how to install it', () => {
  const e = noSshError(Object.assign(new Error('spawn ssh ENOENT'), { code: 'ENOENT' }));
  assert.is(e.exitCode, 14);
  assert.match(e.message, /no `ssh` on the PATH/);
  assert.match(e.hint!, /apt install openssh-client/);
  assert.is(handshakeFailure(end({ code: null, spawnError: Object.assign(new Error('x'), { code: 'ENOENT' }) }), '0.1.0').exitCode, 14);
});

test("ssh's own failures (exit 255): exit 15, each named, ssh's words quoted", () => {
  const cases: [string, RegExp, RegExp][] = [
    [
      'No ED25519 host key is known for [127.0.0.1]:2222 and you have requested strict checking.\r\nHost key verification failed.\r\n',
      /could not verify the host key of box \(ssh: Host key verification failed\.\)/,
      /never accepts a host key/,
    ],
    [
      '@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@\n@    WARNING: REMOTE HOST IDENTIFICATION HAS CHANGED!     @\n',
      /could not verify the host key of box/,
      /ssh box/,
    ],
    ['dev@box: Permission denied (publickey).\r\n', /could not log in to box \(ssh: dev@box: Permission denied \(publickey\)\.\)/, /ssh box true/],
    ['ssh: Could not resolve hostname box: Name or service not known\r\n', /does not know the host box/, /alias/],
    [
      'ssh: connect to host box port 22: Connection refused\r\n',
      /could not reach box \(ssh: ssh: connect to host box port 22: Connection refused\)/,
      /ssh box true/,
    ],
    ['Timeout, server box not responding.\r\n', /stopped answering ssh's keepalives/, /network/],
    ['something new\n', /ssh failed to connect to box \(exit 255\) \(ssh: something new\)/, /ssh box true/],
  ];
  for (const [stderr, message, hint] of cases) {
    const e = handshakeFailure(end({ stderr }), '0.1.0');
    assert.is(e.exitCode, 15, stderr);
    assert.match(e.message, message);
    assert.match(e.hint!, hint);
  }
});

test('no baton on the host: exit 16, what was not found, and how to say where it is', () => {
  const missing = handshakeFailure(end({ code: 127, stderr: 'bash: line 1: baton: command not found\n' }), '0.1.0');
  assert.is(missing.exitCode, 16);
  assert.is(missing.message, 'box has no baton: its shell did not find `baton` (ssh: bash: line 1: baton: command not found)');
  assert.match(missing.hint!, /install baton 0\.1\.0 on box, or say where it is: --remote-baton PATH, or BATON_REMOTE_COMMAND/);
  const noexec = handshakeFailure(end({ code: 126, remoteBaton: '/opt/baton', stderr: 'sh: 1: /opt/baton: Permission denied\n' }), '0.1.0');
  assert.is(noexec.exitCode, 16);
  assert.match(noexec.message, /`\/opt\/baton` cannot be run on box/);
  const old = handshakeFailure(end({ code: 2, stderr: 'baton: Unknown argument: start\n  hint: see `baton --help`\n' }), '0.1.0');
  assert.is(old.exitCode, 16);
  assert.match(old.message, /did not start a baton proxy \(exit 2\) \(ssh: baton: Unknown argument: start\)/);
  assert.match(old.hint!, /older than `baton proxy`/);
});

test('a proxy that started and then ended without an answer: exit 13', () => {
  const e = handshakeFailure(end({ code: 1, proxyStarted: true, stderr: 'TypeError: boom\n' }), '0.1.0');
  assert.is(e.exitCode, 13);
  assert.match(e.message, /the baton proxy on box ended before the server answered \(exit 1\) \(ssh: TypeError: boom\)/);
});

test('an attached client: a dropped connection is said; a proxy that ended quietly is the server closing', () => {
  assert.match(
    lostConnection(end({ proxyStarted: true, stderr: 'Timeout, server box not responding.\n' }))!,
    /the connection to box stopped answering ssh's keepalives/,
  );
  assert.match(lostConnection(end({ proxyStarted: true, stderr: 'Connection to box closed by remote host.\n' }))!, /^lost the connection to box/);
  assert.is(lostConnection(end({ proxyStarted: true, code: 0 })), undefined);
  assert.match(lostConnection(end({ proxyStarted: true, code: null, signal: 'SIGKILL' }))!, /ended by SIGKILL/);
});

test("ssh's words: the last meaningful line, no control characters, no routine notices or hint lines, at most 300 characters", () => {
  assert.is(sshSaid("Permission denied\r\nWarning: Permanently added '[x]:2' (ED25519) to the list of known hosts.\r\n"), 'Permission denied');
  assert.is(sshSaid('\x1b]0;title\x07bad \x1b[31mred\x1b[0m\n'), 'bad red');
  assert.is(sshSaid(''), '');
  assert.is(sshSaid('x'.repeat(400)).length, 301);
});

test.run();
