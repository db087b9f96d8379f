// The brief a view gives its agent when a reopened tab could not continue the agent's own
// session (the agent offers no session/load or session/resume, or refused it): the
// conversation so far as baton's log has it (the user's messages, the agent's answers, the
// tool calls by what they did and how they ended), sent once, before the user's next message,
// so the new session does not start knowing nothing of the tab. The newest part is kept when
// it is long. Quoted text that holds the frame's lines is unframed, so the earlier
// conversation ends at the closing line and nowhere else.

import { frameWords, unframe } from '../transcript/brief-sections.js';
import { toolLabel } from './acp-view-cards.js';
import type { Block } from './acp-view-model.js';

/** The line after the conversation, before the user's new message. */
const VIEW_BRIEF_END = "[End of the earlier conversation. The user's new message:]";

/**
 * The frame's lines, the opening one whatever its title: a message or an answer that holds one
 * (a pasted brief, an agent's echo of one) would make the earlier conversation seem to end
 * there, and the rest read as the user's new message.
 */
const VIEW_FRAME = frameWords('baton: … could not continue its earlier session in this tab, so this is a new session. …', VIEW_BRIEF_END.slice(1, -1));

/** The most of the conversation a brief quotes (the newest part kept). */
const BRIEF_CHARS = 12_000;

/** The brief for `title` of what `blocks` hold; undefined when no message was said. */
export function viewBrief(blocks: readonly Block[], title: string, maxChars = BRIEF_CHARS): string | undefined {
  const said: string[] = [];
  for (const b of blocks) {
    let line: string | undefined;
    if (b.k === 'user') line = `User${b.author ? ` (${b.author})` : ''}: ${b.text}`;
    else if (b.k === 'agent' && b.text.trim()) line = `${title}: ${b.text.trim()}`;
    else if (b.k === 'tool') line = `(${toolLabel(b.tool)}${b.tool.title ? ` ${b.tool.title}` : ''}: ${b.tool.status ?? 'not finished'})`;
    // Unframed before any cut: a cut keeps a line's end, never makes a frame line of it.
    if (line !== undefined) said.push(unframe(line, VIEW_FRAME));
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
    VIEW_BRIEF_END,
  ].join('\n');
}
