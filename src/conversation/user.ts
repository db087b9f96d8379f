// Who is typing: the author of user messages, `User { name, device }`, recorded from the
// first entry so a shared conversation can tell people apart.

import { hostname, userInfo } from 'node:os';
import type { UserAuthor } from '../transcript/types.js';

export function userAuthor(env: NodeJS.ProcessEnv): UserAuthor {
  let name = env.BATON_USER || env.USER || env.LOGNAME;
  if (!name) {
    try {
      name = userInfo().username;
    } catch {
      name = 'user';
    }
  }
  return { type: 'user', name, device: env.BATON_DEVICE || hostname() };
}
