// What the terminal the user sits at can draw, decided once at start-up from the
// environment baton was started in (COLORTERM, TERM) and that terminal's terminfo entry
// (Tc/RGB, colors, sitm, dim, smxx, Smulx/Su): the pane renderer passes the program's
// truecolour and attributes through where the terminal has them and maps them where it
// has not. It reads, never writes; with no readable entry it assumes a modern xterm.

import { readTerminfo, type Terminfo } from './terminfo.js';

export interface TerminalCaps {
  /** 24-bit colour (SGR 38;2): passed through, else mapped to `colors`. */
  truecolor: boolean;
  /** Palette size when not truecolor: 256, 16 or 8. */
  colors: 256 | 16 | 8;
  dim: boolean;
  italic: boolean;
  strikethrough: boolean;
  /** Curly, dotted, dashed, double underlines (SGR 4:n) and underline colour (SGR 58). */
  styledUnderline: boolean;
  /** OSC 8 hyperlinks; a terminal that lacks them ignores the sequence, except the Linux console and its kind. */
  hyperlinks: boolean;
}

/** Terminals known to draw styled underlines whose terminfo entry may be missing on the host. */
const STYLED_UNDERLINE_TERMS = /^(xterm-kitty|xterm-ghostty|wezterm|foot|contour|alacritty)/;
/** Terminals that would print an unknown OSC, or have no UTF-8 to speak of. */
const PLAIN_TERMS = /^(linux|vt\d|ansi|dumb|cons\d|screen\.linux)/;

/**
 * What every one of several terminals can draw (clients attached to one server all get the
 * same bytes); undefined for none.
 */
export function commonCaps(all: readonly TerminalCaps[]): TerminalCaps | undefined {
  if (!all.length) return undefined;
  return {
    truecolor: all.every((c) => c.truecolor),
    colors: Math.min(...all.map((c) => c.colors)) as TerminalCaps['colors'],
    dim: all.every((c) => c.dim),
    italic: all.every((c) => c.italic),
    strikethrough: all.every((c) => c.strikethrough),
    styledUnderline: all.every((c) => c.styledUnderline),
    hyperlinks: all.every((c) => c.hyperlinks),
  };
}

/**
 * The capabilities of a terminal known by its TERM and COLORTERM alone (a client's, told to
 * the server), its terminfo looked up where `dirsEnv` (TERMINFO, TERMINFO_DIRS, HOME) says.
 */
export function terminalCapsOf(term: string | undefined, colorterm: string | undefined, dirsEnv: NodeJS.ProcessEnv): TerminalCaps {
  const { TERMINFO, TERMINFO_DIRS, HOME } = dirsEnv;
  return terminalCaps({ TERMINFO, TERMINFO_DIRS, HOME, TERM: term, COLORTERM: colorterm });
}

export function terminalCaps(env: NodeJS.ProcessEnv, terminfo: Terminfo | undefined = readTerminfo(env.TERM ?? '', env)): TerminalCaps {
  const term = env.TERM ?? '';
  const caps = terminfo?.caps;
  const has = (name: string) => caps?.has(name) ?? false;
  const colorterm = (env.COLORTERM ?? '').toLowerCase();
  const infoColors = typeof caps?.get('colors') === 'number' ? (caps.get('colors') as number) : undefined;
  const truecolor = colorterm === 'truecolor' || colorterm === '24bit' || has('Tc') || has('RGB') || (infoColors ?? 0) >= 0x1000000 || /-direct$/.test(term);
  // Without an entry, assume what every terminal of the last decade has: 256 colours.
  const colors = infoColors === undefined || infoColors >= 256 ? 256 : infoColors >= 16 ? 16 : 8;
  const plain = PLAIN_TERMS.test(term);
  return {
    truecolor,
    colors,
    dim: terminfo ? has('dim') : !plain,
    italic: terminfo ? has('sitm') : !plain,
    strikethrough: terminfo ? has('smxx') : !plain,
    styledUnderline: has('Smulx') || has('Su') || STYLED_UNDERLINE_TERMS.test(term) || Number(env.VTE_VERSION ?? 0) >= 5102,
    hyperlinks: !plain,
  };
}
