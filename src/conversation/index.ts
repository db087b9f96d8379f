// The conversation layer as the TUI and the server see it: commands in, snapshots and events
// out. A tab's conversation is a TabConversation (openTabConversation creates or opens it);
// the remembered tabs of a directory, a fork's worktree removal and the few words the TUI
// shares with the command line are here too. Nothing above this layer imports its files one
// by one, nor the transcript store or git (test/unit/layers.test.ts checks it for src/tui and
// src/server), so what lies behind (the session, its queue, its transcript, the switch
// transaction, the store) can change without the TUI knowing. The state dir and its pruning at
// start-up, and the git facts a brief quotes, are the store's and git's, passed through.

export type { AgentTerminal, InputProgress, TerminalLaunch } from './agent-terminal.js';
export type { ForkResult } from './fork.js';
export type {
  ConversationFacts,
  ForkFacts,
  ForkWhere,
  ResetDone,
  ResetFacts,
  TranscriptReader,
  UndoDone,
  UndoFacts,
} from './fork-history.js';
export { tabForkHint } from './fork-worktree.js';
export { CARD_LABEL, type HandoffCard } from './handoff-card.js';
export { chooseLocal, defaultLocalEndpoint, type LocalPick } from './local-choice.js';
export type { NeedsYou } from './needs-you.js';
export type { ConversationSource } from './store/conversations.js';
export { rememberedTabs, rememberTabs, type RememberedTab } from './store/remembered-tabs.js';
export type { SwitchOutcome } from './switch-transaction.js';
export { openTabConversation, TabConversation, type ClosedConversation, type TabConversationOptions } from './tab-conversation.js';
export { isBusy, type ArmedSwitch, type SendResult, type TabSnapshot } from './tab-session.js';
export { userAuthor } from './user.js';
export { removeForkWorktree, type RemoveForkResult } from './worktree-forks.js';
export { settingsPath } from './worktree-settings.js';
export { pruneAtStartup, resolveHome } from '../transcript/store.js';
export { createGitFactsProvider } from '../worktree/git-facts.js';
