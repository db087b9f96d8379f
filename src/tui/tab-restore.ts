// The agent tabs remembered per directory, so that reopening baton there offers them back
// (the list is kept by the conversation layer's store): what is remembered of each open
// conversation, and the question that opens them again.

import { rememberedTabs, rememberTabs, type RememberedTab, type TabConversation } from '../conversation/index.js';
import type { App } from './app.js';
import { confirm } from './picker.js';

/** Remembers the agent tabs open in `cwd` now: each one's conversation, agent and model. */
export async function rememberOpenTabs(home: string, cwd: string, sessions: Iterable<TabConversation>): Promise<void> {
  const list: RememberedTab[] = [];
  for (const session of sessions) {
    const snap = session.snapshot();
    if (snap.agent) list.push({ conversation: snap.conversationId, agent: snap.agent, ...(snap.model ? { model: snap.model } : {}) });
  }
  await rememberTabs(home, cwd, list);
}

export interface RestoreContext {
  app: App;
  home: string;
  cwd: string;
  /** Agents' titles by driver name (the question names them). */
  titles: Record<string, string>;
  /** Opens one remembered tab (its failure is said, and the others still open). */
  open(agent: string, conversation: string, model: string | undefined): Promise<unknown>;
}

/** Offers the tabs baton had open in this directory last time; true when the user took the offer. */
export async function offerRememberedTabs(ctx: RestoreContext): Promise<boolean> {
  const saved = rememberedTabs(ctx.home, ctx.cwd);
  if (!saved.length) return false;
  const names = saved.map((r) => ctx.titles[r.agent] ?? r.agent).join(', ');
  const many = saved.length > 1;
  const question = `Last time baton had ${saved.length} tab${many ? 's' : ''} here: ${names}.\nOpen ${many ? 'them' : 'it'} again?`;
  if (!(await confirm(ctx.app, 'Restore tabs', question))) return false;
  for (const r of saved) {
    try {
      await ctx.open(r.agent, r.conversation, r.model === 'default' ? undefined : r.model);
    } catch (err) {
      ctx.app.showMessage(`could not restore ${r.conversation}: ${(err as Error).message}`, 8000);
    }
  }
  return true;
}
