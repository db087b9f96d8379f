// The help overlay (prefix ?): every binding of the loaded key configuration, so what it
// lists is what the keys do — never a hand-written copy of the defaults — and the transcript
// view's own keys, from the list the view itself uses.

import blessed from './blessed.js';
import { COMPOSE_KEYS } from './compose-bar.js';
import { describeBindings, type KeyConfig } from './keys.js';
import { OVERLAY_STYLE, type OverlayHost } from './overlay.js';
import { escapeTags } from './tab-bar.js';
import { TRANSCRIPT_VIEW_KEYS } from './transcript-view.js';

export function helpText(cfg: KeyConfig): string[] {
  const rows = describeBindings(cfg);
  const w = Math.max(...rows.map((r) => r.keys.length));
  const cw = Math.max(...COMPOSE_KEYS.map((r) => r.keys.length));
  const tw = Math.max(...TRANSCRIPT_VIEW_KEYS.map((r) => r.keys.length));
  return [
    ...rows.map((r) => `${r.keys.padEnd(w)}  ${r.help}`),
    '',
    'In the transcript view:',
    ...TRANSCRIPT_VIEW_KEYS.map((r) => `  ${r.keys.padEnd(tw)}  ${r.help}`),
    '',
    'In the compose bar:',
    ...COMPOSE_KEYS.map((r) => `  ${r.keys.padEnd(cw)}  ${r.help}`),
    '',
    'Every other key goes to the program in the tab unchanged.',
    `Keys read from: ${cfg.sources.join(', ')}`,
    'q, Esc or ? closes this help.',
  ];
}

export function openHelp(host: OverlayHost, cfg: KeyConfig): Promise<void> {
  const lines = helpText(cfg);
  const width = Math.min(Math.max(...lines.map((l) => l.length)) + 4, (host.screen.width as number) - 2);
  const height = Math.min(lines.length + 2, (host.screen.height as number) - 2);
  const box = blessed.box({
    parent: host.screen,
    // On a short screen the rest is below: said where the eye starts.
    label: lines.length + 2 > height ? ' baton keys · Down/Up scrolls for more · q closes ' : ' baton keys ',
    top: 'center',
    left: 'center',
    width,
    height,
    content: lines.map(escapeTags).join('\n'),
    tags: true,
    scrollable: true,
    alwaysScroll: true,
    keys: true,
    ...OVERLAY_STYLE,
  });
  return new Promise((resolve) => {
    box.key(['q', 'escape', '?', 'enter'], () => {
      host.closeOverlay(box);
      box.destroy();
      resolve();
    });
    box.key(['down', 'j'], () => {
      box.scroll(1);
      host.screen.render();
    });
    box.key(['up', 'k'], () => {
      box.scroll(-1);
      host.screen.render();
    });
    host.openOverlay(box);
  });
}
