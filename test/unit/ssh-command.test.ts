// src/client/ssh-command.ts: how --host runs ssh. The argv: a plain channel (no terminal, no
// escape character, no X11 or agent forwarding, the config's port forwardings cleared),
// keepalives, and `--` before the destination so nothing after it is read as an option; a
// destination that is empty, starts with "-" or holds whitespace or a control character is
// refused before ssh runs. The remote command: the remote baton (`baton`, --remote-baton
// quoted as one word with `~/` left to the remote shell, or BATON_REMOTE_COMMAND as written),
// then `proxy -L NAME [--start]` with the name quoted.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { checkHost, KEEPALIVE, proxyCommand, remoteBatonText, sshArgs } from '../../src/client/ssh-command.js';
import { BatonError } from '../../src/errors.js';

test('ssh gets an argv: plain channel, keepalives, then -- HOST COMMAND', () => {
  const args = sshArgs('dev@box', 'baton proxy -L default');
  assert.equal(args, [
    '-T',
    '-e',
    'none',
    '-x',
    '-a',
    '-o',
    'ClearAllForwardings=yes',
    '-o',
    `ServerAliveInterval=${KEEPALIVE.intervalS}`,
    '-o',
    `ServerAliveCountMax=${KEEPALIVE.countMax}`,
    '--',
    'dev@box',
    'baton proxy -L default',
  ]);
  assert.is(KEEPALIVE.intervalS * KEEPALIVE.countMax, 45, 'a dead connection is given up after 45 s of silence');
});

test('destinations ssh takes are kept as given; an option, a space or a control character is refused', () => {
  for (const ok of ['box', 'dev@box', 'dev@10.0.0.2', 'ssh://dev@box:2222', 'alias-from-config', '[::1]']) assert.is(checkHost(ok), ok);
  for (const bad of ['', '-oProxyCommand=sh', '-p', 'box extra', 'box\tx', 'box\n', 'bo\x1bx']) {
    assert.throws(
      () => checkHost(bad),
      (e: unknown) => e instanceof BatonError && e.exitCode === 2,
      JSON.stringify(bad),
    );
  }
  assert.throws(
    () => sshArgs('-oProxyCommand=touch /tmp/x', 'baton'),
    (e: unknown) => e instanceof BatonError,
  );
});

test('the remote command: baton on the remote PATH by default, the name quoted, --start when asked', () => {
  assert.is(proxyCommand({ name: 'default', start: false }), 'baton proxy -L default');
  assert.is(proxyCommand({ name: 'work.2', start: true }), 'baton proxy -L work.2 --start');
});

test('--remote-baton is one word on the remote shell, ~/ its home; BATON_REMOTE_COMMAND is shell text used as written', () => {
  assert.is(remoteBatonText({ remoteBaton: "/opt/my tools/it's baton" }), "'/opt/my tools/it'\\''s baton'");
  assert.is(remoteBatonText({ remoteBaton: '~/.local/bin/baton' }), '~/.local/bin/baton');
  assert.is(remoteBatonText({ remoteBaton: '/x;reboot' }), "'/x;reboot'");
  assert.is(remoteBatonText({ remoteCommand: '  PATH=$HOME/.nvm/bin:$PATH baton ' }), 'PATH=$HOME/.nvm/bin:$PATH baton');
  assert.is(remoteBatonText({ remoteBaton: '/usr/bin/baton', remoteCommand: 'other' }), '/usr/bin/baton', '--remote-baton wins');
  assert.is(remoteBatonText({ remoteCommand: '   ' }), 'baton');
  assert.throws(
    () => remoteBatonText({ remoteBaton: '' }),
    (e: unknown) => e instanceof BatonError && e.exitCode === 2,
  );
  assert.is(proxyCommand({ name: 'default', start: true, remoteBaton: '/a b/baton' }), "'/a b/baton' proxy -L default --start");
});

test.run();
