// Clipboard through the terminal: OSC 52 asks the terminal the user sits at (also across
// SSH) to set its clipboard. Builds the sequence only; it must never write it itself.

/** Terminals cap OSC 52 payloads (xterm ~100 KB, others less); longer copies are cut at this many bytes. */
export const OSC52_MAX_BYTES = 74_994;

export function osc52(text: string, target = 'c'): string {
  let bytes = Buffer.from(text, 'utf8');
  if (bytes.length > OSC52_MAX_BYTES) {
    // Cut on a character boundary so the clipboard never ends in half a character.
    let end = OSC52_MAX_BYTES;
    while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
    bytes = bytes.subarray(0, end);
  }
  return `\x1b]52;${target};${bytes.toString('base64')}\x07`;
}
