// The brief a view gives its agent when a reopened tab could not continue the agent's own
// session (the agent offers no session/load or session/resume, or refused it): the
// conversation so far as baton's log has it (the user's messages, the agent's answers, the
// tool calls by what they did and how they ended), sent once, before the user's next message,
// so the new session does not start knowing nothing of the tab. The newest part is kept when
// it is long.

import { toolLabel } from './acp-view-cards.js';
import type { Block } from './acp-view-model.js';

/** The most of the conversation a brief quotes (the newest part kept). */
const BRIEF_CHARS = 12_000;

/** The brief for `title` of what `blocks` hold; undefined when no message was said. */
export function viewBrief(blocks: readonly Block[], title: string, maxChars = BRIEF_CHARS): string | undefined {
  const said: string[] = [];
  for (const b of blocks) {
    if (b.k === 'user') said.push(`User${b.author ? ` (${b.author})` : ''}: ${b.text}`);
    else if (b.k === 'agent' && b.text.trim()) said.push(`${title}: ${b.text.trim()}`);
    else if (b.k === 'tool') said.push(`(${toolLabel(b.tool)}${b.tool.title ? ` ${b.tool.title}` : ''}: ${b.tool.status ?? 'not finished'})`);
  }
  if (!blocks.some((b) => b.k === 'user')) return undefined;
  let kept = said;
  let cut = false;
  while (kept.length > 1 && kept.join('\n').length > maxChars) {
    kept = kept.slice(1);
    cut = true;
  }
  let text = kept.join('\n');
  if (text.length > maxChars) text = text.slice(-maxChars);
  return [
    `[baton: ${title} could not continue its earlier session in this tab, so this is a new session. The conversation so far, from baton's record${cut || text.length < kept.join('\n').length ? ' (its earlier part left out)' : ''}, for context only: it has already happened.]`,
    text,
    "[End of the earlier conversation. The user's new message:]",
  ].join('\n');
}
