// The server's malloc setting goes into its environment ahead of the user's own and comes
// out again, exactly as it was, for everything the server starts.

import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { restoreUserTunables, SERVER_MALLOC, serverEnv } from '../../src/server/server-malloc.js';

const s = suite('server-malloc');

s('a user without GLIBC_TUNABLES: the server gets the setting, what it starts gets none', () => {
  const env = serverEnv({ PATH: '/bin' });
  assert.is(env.GLIBC_TUNABLES, SERVER_MALLOC);
  restoreUserTunables(env);
  assert.equal(env, { PATH: '/bin' });
});

s("a user's own GLIBC_TUNABLES: kept after baton's (the last of a tunable wins), and given back as it was", () => {
  const own = 'glibc.malloc.arena_max=2:glibc.malloc.mmap_threshold=65536';
  const env = serverEnv({ PATH: '/bin', GLIBC_TUNABLES: own });
  assert.is(env.GLIBC_TUNABLES, `${SERVER_MALLOC}:${own}`);
  restoreUserTunables(env);
  assert.equal(env, { PATH: '/bin', GLIBC_TUNABLES: own });
});

s('a process not started by serverEnv (a client, a shell in a tab) is left alone', () => {
  const env = { PATH: '/bin', GLIBC_TUNABLES: 'glibc.malloc.arena_max=2' };
  restoreUserTunables(env);
  assert.equal(env, { PATH: '/bin', GLIBC_TUNABLES: 'glibc.malloc.arena_max=2' });
});

s.run();
