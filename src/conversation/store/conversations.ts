// Creating and opening the conversation a tab holds: a new one in a directory (its base
// branch recorded when the directory is a git repository), or an existing one by id with the
// writer lock. The TUI asks for these through the conversation layer; it never opens the
// transcript store itself.

import { createConversation, openConversation, type OpenConversation } from '../../transcript/store.js';
import type { UserAuthor } from '../../transcript/types.js';
import { currentBranch, isRepo } from '../../worktree/git.js';

/** Where a tab's conversation comes from: a new one started in `cwd`, or an existing one. */
export type ConversationSource = { new: { cwd: string } } | { open: string };

export async function openForTab(home: string, source: ConversationSource, user: UserAuthor): Promise<OpenConversation> {
  if ('open' in source) return openConversation(home, source.open, { write: true, user });
  const { cwd } = source.new;
  const repo = await isRepo(cwd);
  return createConversation(home, { cwd, title: '', user, baseBranch: repo ? ((await currentBranch(cwd)) ?? undefined) : undefined });
}
