// A width policy for a test terminal that draws emoji sequences the way kitty, WezTerm,
// Ghostty, foot and iTerm2 do: a ZWJ sequence, a skin-tone modifier and a presentation
// selector join the character before them into one glyph two columns wide. Widths of single
// characters are xterm.js's Unicode 11 ones (the provider of @xterm/addon-unicode11, taken
// from the addon itself), so it differs from baton's emulator only in what it joins.
// Registered through xterm.js's own Unicode API (IUnicodeVersionProvider).

import unicode11 from '@xterm/addon-unicode11';
import type { IUnicodeVersionProvider, Terminal } from '@xterm/headless';

const { Unicode11Addon } = unicode11 as unknown as { Unicode11Addon: new () => { activate(t: unknown): void } };

function unicode11Provider(): IUnicodeVersionProvider {
  let provider: IUnicodeVersionProvider | undefined;
  new Unicode11Addon().activate({ unicode: { register: (p: IUnicodeVersionProvider) => (provider = p) } });
  if (!provider) throw new Error('@xterm/addon-unicode11 registered no provider');
  return provider;
}

const ZWJ = 0x200d;
/** xterm.js's encoding of a character's properties: kind (our state) << 3 | width << 1 | joins. */
const props = (kind: number, width: number, join: boolean) => ((kind & 0xffffff) << 3) | ((width & 3) << 1) | (join ? 1 : 0);
const widthOf = (p: number) => (p >> 1) & 3;
const kindOf = (p: number) => p >> 3;
const AFTER_ZWJ = 1;
const OTHER = 2;

export function registerGraphemeWidths(term: Terminal): void {
  const base = unicode11Provider();
  term.unicode.register({
    version: 'test-graphemes',
    wcwidth: (cp) => base.wcwidth(cp),
    charProperties(cp, preceding) {
      const w = base.wcwidth(cp);
      const prevWidth = widthOf(preceding);
      if (preceding !== 0 && prevWidth > 0) {
        // After a ZWJ, the next pictograph is part of the same glyph.
        if (kindOf(preceding) === AFTER_ZWJ) return props(OTHER, prevWidth, true);
        if (cp === ZWJ) return props(AFTER_ZWJ, prevWidth, true);
        if (cp === 0xfe0f) return props(OTHER, 2, true);
        if (cp >= 0x1f3fb && cp <= 0x1f3ff) return props(OTHER, prevWidth, true);
        if (w === 0) return props(OTHER, prevWidth, true);
      }
      return props(OTHER, w, false);
    },
  });
  term.unicode.activeVersion = 'test-graphemes';
}
