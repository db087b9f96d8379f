// The help overlay (prefix ?): every binding of the loaded key configuration, so what it
// lists is what the keys do — never a hand-written copy of the defaults — and the transcript
// view's own keys, from the list the view itself uses. In a plain shell's tab the keys that
// only an agent tab takes are listed apart, as what an agent tab offers.

import blessed from './blessed.js';
import { COMPOSE_KEYS } from './compose-lines.js';
import { AGENT_TAB_COMMANDS, describeBindings, type KeyConfig } from './keys.js';
import { OVERLAY_STYLE, type OverlayHost } from './overlay.js';
import { escapeTags } from './tab-bar.js';
import { TRANSCRIPT_VIEW_KEYS } from './transcript-view.js';
import { wrapLines } from './wrap.js';

export interface HelpContext {
  /** The tab in front runs an agent; false for a plain shell (or no tab): its agent keys are refused there. */
  agentTab: boolean;
  /** Said first: baton's prefix is tmux's too (keys.ts tmuxPrefixNote). */
  note?: string;
}

export function helpText(cfg: KeyConfig, ctx: HelpContext = { agentTab: true }): string[] {
  const rows = describeBindings(cfg);
  const w = Math.max(...rows.map((r) => r.keys.length));
  const cw = Math.max(...COMPOSE_KEYS.map((r) => r.keys.length));
  const tw = Math.max(...TRANSCRIPT_VIEW_KEYS.map((r) => r.keys.length));
  const line = (r: { keys: string; help: string }) => `${r.keys.padEnd(w)}  ${r.help}`;
  const agentOnly = rows.filter((r) => AGENT_TAB_COMMANDS.has(r.group));
  const views = [
    'In the transcript view:',
    ...TRANSCRIPT_VIEW_KEYS.map((r) => `  ${r.keys.padEnd(tw)}  ${r.help}`),
    '',
    'In the compose bar:',
    ...COMPOSE_KEYS.map((r) => `  ${r.keys.padEnd(cw)}  ${r.help}`),
  ];
  // A plain shell's tab refuses the agent keys: they are listed apart, as what an agent tab offers.
  const body = ctx.agentTab
    ? [...rows.map(line), '', ...views]
    : [
        ...rows.filter((r) => !AGENT_TAB_COMMANDS.has(r.group)).map(line),
        ...(agentOnly.length ? ['', 'In an agent tab (this one runs a plain shell):', ...agentOnly.map((r) => `  ${line(r)}`)] : []),
      ];
  return [
    ...(ctx.note ? [ctx.note, ''] : []),
    ...body,
    '',
    'Every other key goes to the program in the tab unchanged.',
    `Keys read from: ${cfg.sources.join(', ')}`,
    'q, Esc or ? closes this help.',
  ];
}

export function openHelp(host: OverlayHost, cfg: KeyConfig, ctx?: HelpContext): Promise<void> {
  const given = helpText(cfg, ctx);
  const width = Math.min(Math.max(...given.map((l) => l.length)) + 4, (host.screen.width as number) - 2);
  // Wrapped here, so the box's height counts the rows a long line takes (its last line was cut off).
  const lines = wrapLines(given, width - 2);
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
