// Who an attached client says it is (its hello's `user`), as the author of what it sends
// from the compose bar. The hello comes off the socket: the name is drawn on every attached
// client's screen and recorded in the transcript, so it is made plain text, bounded and
// never empty here, whatever the client sent. Pure.

import { stripControls } from '../transcript/sanitize.js';
import type { UserAuthor } from '../transcript/types.js';

/** Longest name or device kept from a hello. */
const USER_FIELD_MAX = 64;

export function authorOf(user: unknown): UserAuthor {
  const u = (typeof user === 'object' && user !== null ? user : {}) as Record<string, unknown>;
  return { type: 'user', name: field(u.name), device: field(u.device) };
}

function field(v: unknown): string {
  const t =
    typeof v === 'string'
      ? stripControls(v)
          .replace(/[\n\t]/g, ' ')
          .trim()
          .slice(0, USER_FIELD_MAX)
      : '';
  return t || 'unknown';
}
