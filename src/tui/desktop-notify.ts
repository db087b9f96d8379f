// "Needs you" told to the terminal the user sits at: the bell (BEL) and a desktop
// notification as an OSC 9 (iTerm2's: `ESC ] 9 ; text BEL`) and/or OSC 777 (urxvt's and
// VTE's: `ESC ] 777 ; notify ; title ; body BEL`). Both are plain bytes in the terminal's
// stream, so they work over SSH, and a terminal that knows neither ignores them. Which one
// goes is the user's setting, or (auto) what the terminal is known to show: one only where
// it is known (a terminal that shows both would show it twice), both where it is not.
// Builds the bytes only; it never writes them. The text is the tab's label (a program may
// set it): stripped of control characters and of the separators the sequences use.

import { stripControls } from '../transcript/sanitize.js';

export type DesktopStyle = 'osc9' | 'osc777' | 'both' | 'off';

export interface NotifySettings {
  /** Ring the terminal's bell. */
  bell: boolean;
  /** The desktop notification: a style, or auto (from what the terminal says it is). */
  desktop: DesktopStyle | 'auto';
}

export const DEFAULT_NOTIFY: NotifySettings = { bell: true, desktop: 'auto' };

/** What a terminal says of itself in its environment (a client sends them in its hello). */
export interface OuterTerminalFacts {
  term?: string | undefined;
  /** TERM_PROGRAM (iTerm.app, WezTerm, ghostty, ...). */
  termProgram?: string | undefined;
  /** LC_TERMINAL: iTerm2 sets it, and ssh passes LC_* on by default (TERM_PROGRAM it does not). */
  lcTerminal?: string | undefined;
  /** VTE_VERSION: a VTE terminal (GNOME Terminal, Tilix...): OSC 777. */
  vteVersion?: string | undefined;
}

export function outerTerminalFacts(env: NodeJS.ProcessEnv): OuterTerminalFacts {
  return { term: env.TERM, termProgram: env.TERM_PROGRAM, lcTerminal: env.LC_TERMINAL, vteVersion: env.VTE_VERSION };
}

/** The desktop notification a terminal is known to show; both when it is not known. */
export function desktopStyleFor(f: OuterTerminalFacts): Exclude<DesktopStyle, 'off'> {
  const program = (f.termProgram ?? '').toLowerCase();
  const term = (f.term ?? '').toLowerCase();
  if (program === 'iterm.app' || (f.lcTerminal ?? '').toLowerCase() === 'iterm2') return 'osc9';
  if (program === 'wezterm' || program === 'ghostty' || term === 'xterm-ghostty' || term === 'xterm-kitty') return 'osc9';
  if (f.vteVersion || term.startsWith('foot') || term.startsWith('rxvt-unicode')) return 'osc777';
  return 'both';
}

const MAX_TEXT = 200;

/** One line of text for a sequence's field: no controls, none of `cut` (its separators), not too long. */
function field(s: string, cut: RegExp): string {
  const clean = stripControls(s)
    .replace(/[\r\n\t]+/g, ' ')
    .replace(cut, ',')
    .trim();
  return [...clean].slice(0, MAX_TEXT).join('');
}

export interface Notification {
  title: string;
  body: string;
}

/** The bytes that tell a terminal described by `facts`, as `settings` say ('' when they say nothing). */
export function notificationBytes(n: Notification, settings: NotifySettings, facts: OuterTerminalFacts): string {
  let out = settings.bell ? '\x07' : '';
  const style = settings.desktop === 'auto' ? desktopStyleFor(facts) : settings.desktop;
  // (OSC 9 has one field; a body starting with digits and ';' would read as ConEmu's OSC 9;n commands.)
  if (style === 'osc9' || style === 'both') out += `\x1b]9;${field(`${n.title}: ${n.body}`, /[;\x07]/g)}\x07`;
  if (style === 'osc777' || style === 'both') out += `\x1b]777;notify;${field(n.title, /;/g)};${field(n.body, /;/g)}\x07`;
  return out;
}
