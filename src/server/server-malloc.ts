// The server's malloc setting, and keeping it to the server. glibc serves an allocation of
// 128 KB or more with mmap and gives it back on free, but raises that threshold to the size
// of every such block freed, up to 32 MB: after the first burst of output the server's large
// buffers (xterm's parse buffer, 512 KB a pane; a flood's staging ring, 1 MB; PTY chunks)
// came from the heap, and once freed stayed resident, pinned by what was allocated after
// them. A fixed threshold keeps them mmapped (8 tabs x 10k lines, 1 s after, bench runs:
// server 91-100 MB -> 80-89 MB). The setting is read when a process starts, so it goes into
// the server's environment (client/connect.ts) and the server puts the user's own value back
// at once, before it starts anything: shells and agents never inherit baton's.

/** Fixed: a fixed mmap threshold also stops glibc's dynamic raising of it. */
export const SERVER_MALLOC = 'glibc.malloc.mmap_threshold=131072';
const TUNABLES = 'GLIBC_TUNABLES';
/** The user's own GLIBC_TUNABLES while the server's replaces it ('' when there was none). */
const USERS = 'BATON_USER_GLIBC_TUNABLES';

/** The environment to start a server with: baton's malloc setting ahead of the user's own, which is kept aside. */
export function serverEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const own = env[TUNABLES];
  return { ...env, [TUNABLES]: own ? `${SERVER_MALLOC}:${own}` : SERVER_MALLOC, [USERS]: own ?? '' };
}

/** In a server started by serverEnv: the user's own GLIBC_TUNABLES back (or none), for everything it starts. */
export function restoreUserTunables(env: NodeJS.ProcessEnv = process.env): void {
  const own = env[USERS];
  if (own === undefined) return;
  if (own === '') delete env[TUNABLES];
  else env[TUNABLES] = own;
  delete env[USERS];
}
