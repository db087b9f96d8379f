// The input side of the tiny stand-in CLIs some integration tests run in a real PTY: it
// turns bracketed paste on and takes a paste followed by Enter as ONE message, newlines and
// all, as the real agent TUIs do (baton pastes a brief and a message together). Source text
// to put inside such a CLI's script; it defines `onMessage(cb)` and draws `prompt`.

/** JavaScript source defining `onMessage(cb)`; `prompt` is drawn at start and after each message. */
export function pasteInput(prompt: string): string {
  return `
const PROMPT = ${JSON.stringify(prompt)};
function onMessage(cb) {
  process.stdin.setRawMode(true);
  process.stdout.write('\\x1b[?2004h' + PROMPT);
  let buf = '';
  let pasting = false;
  process.stdin.on('data', (d) => {
    let s = d.toString('utf8');
    while (s.length) {
      if (s.startsWith('\\x1b[200~')) { pasting = true; s = s.slice(6); continue; }
      if (s.startsWith('\\x1b[201~')) { pasting = false; s = s.slice(6); continue; }
      const c = s[0];
      s = s.slice(1);
      if (c === '\\r' && !pasting) {
        const text = buf;
        buf = '';
        if (text) cb(text);
        process.stdout.write('\\r\\n' + PROMPT);
      } else buf += c === '\\r' ? '\\n' : c;
    }
  });
}
`;
}
