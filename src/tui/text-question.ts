// A question answered with a line of text, in a box in the middle of the screen: what is
// asked, a few lines of help, and the input line; Enter answers (an empty answer takes the
// default, when there is one), Esc cancels. It only asks: the caller acts on the answer.

import blessed from './blessed.js';
import { OVERLAY_STYLE, type OverlayHost } from './overlay.js';
import { escapeTags, oneLine } from './tab-bar.js';
import { wrapLines } from './wrap.js';

export interface TextQuestion {
  title: string;
  /** What is asked, and how to answer (wrapped to the box). */
  lines: string[];
  /** Taken for an empty answer, and said so under the input. */
  fallback?: string;
}

/** Resolves with the answer (trimmed; the fallback for an empty one), or undefined on Esc. */
export function askText(host: OverlayHost, q: TextQuestion): Promise<string | undefined> {
  const said = [...q.lines, ...(q.fallback ? [`Enter alone: ${q.fallback}`] : []), 'Esc: cancel'];
  const width = Math.min(Math.max(60, q.title.length + 6, ...said.map((l) => l.length + 4)), (host.screen.width as number) - 2);
  const lines = wrapLines(said, width - 4);
  const box = blessed.box({
    parent: host.screen,
    label: ` ${escapeTags(oneLine(q.title))} `,
    top: 'center',
    left: 'center',
    width,
    height: Math.min(lines.length + 5, (host.screen.height as number) - 2),
    padding: { left: 1, right: 1 },
    content: lines.map(escapeTags).join('\n'),
    tags: true,
    ...OVERLAY_STYLE,
  });
  const input = blessed.textbox({
    parent: box,
    top: lines.length,
    left: 0,
    right: 0,
    height: 3,
    inputOnFocus: false,
    border: { type: 'line' },
    style: { border: { fg: 'gray' }, bg: 'black', fg: 'white' },
  });
  return new Promise((resolve) => {
    let done = false;
    const finish = (v: string | undefined) => {
      if (done) return;
      done = true;
      host.closeOverlay(input);
      box.destroy();
      resolve(v);
    };
    input.on('submit', (v: string) => {
      const answer = (v ?? '').trim();
      finish(answer || q.fallback || '');
    });
    input.on('cancel', () => finish(undefined));
    host.openOverlay(input);
    input.readInput();
    host.screen.render();
  });
}
