// Raw terminal input -> key names ("C-b", "M-x", "Up", "PageUp", "a"), and key names ->
// the bytes a terminal sends for them. Used to recognise the prefix and what follows it;
// keys meant for a hosted CLI are forwarded as the original bytes, never re-encoded from
// these names. Pure; it must never read a terminal itself.

export interface ParsedKey {
  /** Canonical name: "C-b", "M-x", "Enter", "Up", "F5", "a", "?"; unknown sequences keep their bytes. */
  name: string;
  /** The exact bytes that made this key. */
  seq: string;
}

const CSI_TILDE: Record<string, string> = {
  '1': 'Home',
  '2': 'Insert',
  '3': 'Delete',
  '4': 'End',
  '5': 'PageUp',
  '6': 'PageDown',
  '7': 'Home',
  '8': 'End',
  '11': 'F1',
  '12': 'F2',
  '13': 'F3',
  '14': 'F4',
  '15': 'F5',
  '17': 'F6',
  '18': 'F7',
  '19': 'F8',
  '20': 'F9',
  '21': 'F10',
  '23': 'F11',
  '24': 'F12',
};
const CSI_FINAL: Record<string, string> = {
  A: 'Up',
  B: 'Down',
  C: 'Right',
  D: 'Left',
  H: 'Home',
  F: 'End',
  Z: 'S-Tab',
  P: 'F1',
  Q: 'F2',
  R: 'F3',
  S: 'F4',
};
const SS3: Record<string, string> = { ...CSI_FINAL, M: 'Enter' };

const NAMED_BYTES: Record<string, string> = {
  Up: '\x1b[A',
  Down: '\x1b[B',
  Right: '\x1b[C',
  Left: '\x1b[D',
  Home: '\x1b[H',
  End: '\x1b[F',
  PageUp: '\x1b[5~',
  PageDown: '\x1b[6~',
  Insert: '\x1b[2~',
  Delete: '\x1b[3~',
  'S-Tab': '\x1b[Z',
  F1: '\x1bOP',
  F2: '\x1bOQ',
  F3: '\x1bOR',
  F4: '\x1bOS',
  F5: '\x1b[15~',
  F6: '\x1b[17~',
  F7: '\x1b[18~',
  F8: '\x1b[19~',
  F9: '\x1b[20~',
  F10: '\x1b[21~',
  F11: '\x1b[23~',
  F12: '\x1b[24~',
};

const NAMED_CONTROL = new Map<number, string>([
  [0x0d, 'Enter'],
  [0x09, 'Tab'],
  [0x7f, 'Backspace'],
  [0x1b, 'Escape'],
  [0x00, 'C-Space'],
]);

function controlName(code: number): string {
  const named = NAMED_CONTROL.get(code);
  if (named) return named;
  if (code >= 1 && code <= 26) return 'C-' + String.fromCharCode(code + 96);
  return 'C-' + String.fromCharCode(code + 64);
}

/** Length of the escape sequence starting at data[i] (data[i] === ESC), or 0 if it is incomplete. */
function escapeLength(data: string, i: number): number {
  const next = data[i + 1];
  if (next === undefined) return 0;
  if (next === '[') {
    for (let j = i + 2; j < data.length; j++) {
      const c = data.charCodeAt(j);
      if (c >= 0x40 && c <= 0x7e) return j - i + 1;
    }
    return 0;
  }
  if (next === 'O') return data.length > i + 2 ? 3 : 0;
  // ESC before a whole escape sequence: Alt with a cursor or function key (ESC ESC [ A),
  // as terminals that send Meta as an ESC prefix do. One key, not M-Escape then "[A".
  if (next === '\x1b' && (data[i + 2] === '[' || data[i + 2] === 'O')) {
    const inner = escapeLength(data, i + 1);
    return inner === 0 ? 0 : inner + 1;
  }
  return 2;
}

/**
 * Split raw input into keys. A trailing incomplete escape sequence is returned as `rest`
 * unless `final` is set, in which case a lone ESC is the Escape key.
 */
export function parseKeys(data: string, final = true): { keys: ParsedKey[]; rest: string } {
  const keys: ParsedKey[] = [];
  let i = 0;
  while (i < data.length) {
    const code = data.charCodeAt(i);
    if (code === 0x1b) {
      const len = escapeLength(data, i);
      if (len === 0) {
        if (!final && data.length - i < 8) return { keys, rest: data.slice(i) };
        keys.push({ name: 'Escape', seq: '\x1b' });
        i++;
        continue;
      }
      const seq = data.slice(i, i + len);
      keys.push({ name: escapeName(seq), seq });
      i += len;
      continue;
    }
    if (code < 0x20 || code === 0x7f) {
      keys.push({ name: controlName(code), seq: data[i]! });
      i++;
      continue;
    }
    const cp = data.codePointAt(i)!;
    const ch = String.fromCodePoint(cp);
    keys.push({ name: ch === ' ' ? 'Space' : ch, seq: ch });
    i += ch.length;
  }
  return { keys, rest: '' };
}

function escapeName(seq: string): string {
  if (seq[1] === '[') {
    const body = seq.slice(2, -1);
    const final = seq[seq.length - 1]!;
    if (final === '~') return CSI_TILDE[body.split(';')[0]!] ?? seq;
    if (body === '' || body === '1') return CSI_FINAL[final] ?? seq;
    return seq;
  }
  if (seq[1] === 'O') return SS3[seq[2]!] ?? seq;
  const inner = seq.slice(1);
  if (inner.length > 2 && inner[0] === '\x1b') {
    const name = escapeName(inner);
    return name === inner ? seq : 'M-' + name;
  }
  const c = inner.charCodeAt(0);
  if (c < 0x20 || c === 0x7f) return 'M-' + controlName(c);
  return 'M-' + (inner === ' ' ? 'Space' : inner);
}

const CONTROL_PUNCT: Record<string, number> = { '@': 0, Space: 0, '[': 0x1b, '\\': 0x1c, ']': 0x1d, '^': 0x1e, _: 0x1f, '?': 0x7f };

/** The bytes a terminal sends for a key name, or undefined when the name is not one. */
export function keyBytes(name: string): string | undefined {
  if (name.startsWith('M-') && name.length > 2) {
    const inner = keyBytes(name.slice(2));
    return inner === undefined ? undefined : '\x1b' + inner;
  }
  if (name.startsWith('C-') && name.length > 2) {
    const k = name.slice(2);
    if (/^[a-zA-Z]$/.test(k)) return String.fromCharCode(k.toLowerCase().charCodeAt(0) - 96);
    const c = CONTROL_PUNCT[k];
    return c === undefined ? undefined : String.fromCharCode(c);
  }
  switch (name) {
    case 'Enter':
      return '\r';
    case 'Tab':
      return '\t';
    case 'Space':
      return ' ';
    case 'Escape':
      return '\x1b';
    case 'Backspace':
      return '\x7f';
  }
  if ([...name].length === 1 && name.codePointAt(0)! >= 0x20) return name;
  return NAMED_BYTES[name];
}

/** The name parseKeys gives the bytes of `name`, so "C-@" and "C-Space" compare equal. */
export function canonicalKey(name: string): string | undefined {
  const bytes = keyBytes(name);
  if (bytes === undefined) return undefined;
  const { keys } = parseKeys(bytes);
  return keys.length === 1 ? keys[0]!.name : undefined;
}
