// Keys as baton's ACP view reads them from its terminal (raw mode): text typed or pasted
// (bracketed paste, which the view turns on, arrives whole even when split across reads, its
// line breaks as \n: a terminal sends a pasted newline as CR, and so does baton's delivery of
// a brief or a message of several lines, which the agent must get as lines, not CRs),
// Enter, Backspace, Esc, Ctrl-C, Ctrl-U, Shift-Tab (the mode key); an APC string (ESC _ … ESC \,
// which no key makes: baton's own requests, such as a model change, typed in by the view
// driver) whole even when split; other escape sequences (arrows, function keys) are
// recognised and dropped, never taken as text. Pure: bytes in, keys out.

export type Key =
  | { k: 'text'; text: string }
  | { k: 'paste'; text: string }
  | { k: 'enter' }
  | { k: 'backspace' }
  | { k: 'escape' }
  | { k: 'interrupt' }
  | { k: 'clear' }
  | { k: 'backtab' }
  | { k: 'apc'; text: string };

const PASTE_START = '\x1b[200~';
const PASTE_END = '\x1b[201~';
const APC_START = '\x1b_';
const APC_END = '\x1b\\';

export class KeyReader {
  /** A paste still arriving. */
  private paste: string | undefined;
  /** An APC string still arriving. */
  private apc: string | undefined;

  read(data: string): Key[] {
    const keys: Key[] = [];
    let i = 0;
    let text = '';
    const flush = () => {
      if (text) keys.push({ k: 'text', text });
      text = '';
    };
    while (i < data.length) {
      if (this.apc !== undefined) {
        // The terminator may itself be split across reads: look for it in what came so far.
        const held = this.apc + data.slice(i);
        const end = held.indexOf(APC_END);
        if (end < 0) {
          this.apc = held;
          return keys;
        }
        keys.push({ k: 'apc', text: held.slice(0, end) });
        this.apc = undefined;
        i = data.length - (held.length - end - APC_END.length);
        continue;
      }
      if (this.paste !== undefined) {
        const end = data.indexOf(PASTE_END, i);
        if (end < 0) {
          this.paste += data.slice(i);
          return keys;
        }
        keys.push({ k: 'paste', text: (this.paste + data.slice(i, end)).replace(/\r\n?/g, '\n') });
        this.paste = undefined;
        i = end + PASTE_END.length;
        continue;
      }
      const ch = data[i]!;
      if (data.startsWith(PASTE_START, i)) {
        flush();
        this.paste = '';
        i += PASTE_START.length;
      } else if (data.startsWith(APC_START, i)) {
        flush();
        this.apc = '';
        i += APC_START.length;
      } else if (ch === '\x1b') {
        flush();
        const seq = /^\x1b(\[[0-?]*[ -/]*[@-~]|O.|.)?/s.exec(data.slice(i))!;
        // A lone ESC (nothing after it in this read) is the Escape key.
        if (!seq[1]) keys.push({ k: 'escape' });
        else if (seq[1] === '[Z') keys.push({ k: 'backtab' });
        i += seq[0].length;
      } else if (ch === '\r' || ch === '\n') {
        flush();
        keys.push({ k: 'enter' });
        i += ch === '\r' && data[i + 1] === '\n' ? 2 : 1;
      } else if (ch === '\x7f' || ch === '\b') {
        flush();
        keys.push({ k: 'backspace' });
        i++;
      } else if (ch === '\x03') {
        flush();
        keys.push({ k: 'interrupt' });
        i++;
      } else if (ch === '\x15') {
        flush();
        keys.push({ k: 'clear' });
        i++;
      } else {
        if (ch >= ' ' || ch === '\t') text += ch;
        i++;
      }
    }
    flush();
    return keys;
  }
}
