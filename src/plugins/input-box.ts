// Reading what a CLI's own input box holds from its screen, for the drivers' inputDraft: the
// box is the last line that starts with the CLI's prompt (the ones above are the history's
// echo of earlier messages), with the lines under it up to the box's end (a draft of several
// lines). A placeholder the CLI shows in an empty box is no text. Pure.

export interface InputBoxShape {
  /** The prompt at the start of the box's first line; what follows it on that line is text. */
  prompt: RegExp;
  /** The first line under the prompt that is no longer the box (its border, a blank, a footer). */
  end: (line: string) => boolean;
  /** What the CLI shows in an empty box. */
  placeholders?: readonly RegExp[];
}

/** The box's text, its lines trimmed and joined with '\n' ('' when empty); undefined when the screen shows no such box. */
export function inputBoxText(lines: readonly string[], shape: InputBoxShape): string | undefined {
  let top = -1;
  for (let i = lines.length - 1; i >= 0; i--) {
    if (shape.prompt.test(lines[i]!)) {
      top = i;
      break;
    }
  }
  if (top < 0) return undefined;
  const text = [lines[top]!.replace(shape.prompt, '')];
  let i = top + 1;
  for (; i < lines.length && !shape.end(lines[i]!); i++) text.push(lines[i]!);
  // A box whose end is not on the screen is not one this reader knows.
  if (i >= lines.length) return undefined;
  const joined = text
    .map((l) => l.trim())
    .join('\n')
    .trim();
  return shape.placeholders?.some((p) => p.test(joined)) ? '' : joined;
}
