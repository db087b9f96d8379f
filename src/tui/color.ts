// Colour reduction for the TUI: the xterm 256-colour palette and a nearest-colour match
// for truecolour cells, because blessed draws at most 256 colours and its own
// colors.match turns saturated colours grey. Pure; it must never touch a terminal.

export type Rgb = readonly [number, number, number];

/** The six channel levels of the xterm 6x6x6 colour cube (indices 16..231). */
export const CUBE_LEVELS = [0, 95, 135, 175, 215, 255] as const;

/** xterm's defaults for the 16 themeable colours; terminals may show them differently. */
const ANSI16: Rgb[] = [
  [0, 0, 0], [205, 0, 0], [0, 205, 0], [205, 205, 0], [0, 0, 238], [205, 0, 205], [0, 205, 205], [229, 229, 229],
  [127, 127, 127], [255, 0, 0], [0, 255, 0], [255, 255, 0], [92, 92, 255], [255, 0, 255], [0, 255, 255], [255, 255, 255],
];

function buildPalette(): Rgb[] {
  const p: Rgb[] = [...ANSI16];
  for (let r = 0; r < 6; r++) {
    for (let g = 0; g < 6; g++) {
      for (let b = 0; b < 6; b++) p.push([CUBE_LEVELS[r]!, CUBE_LEVELS[g]!, CUBE_LEVELS[b]!]);
    }
  }
  for (let i = 0; i < 24; i++) {
    const v = 8 + 10 * i;
    p.push([v, v, v]);
  }
  return p;
}

/** The 256 xterm colours as RGB, index = colour number. */
export const XTERM_256: readonly Rgb[] = buildPalette();

/**
 * A perceptual distance ("redmean" weighted Euclidean, squared): cheap and much closer
 * to what eyes see than plain RGB distance, which is what makes dark blues stay blue.
 */
export function colorDistance(a: Rgb, b: Rgb): number {
  const rm = (a[0] + b[0]) / 2;
  const dr = a[0] - b[0];
  const dg = a[1] - b[1];
  const db = a[2] - b[2];
  return (2 + rm / 256) * dr * dr + 4 * dg * dg + (2 + (255 - rm) / 256) * db * db;
}

const cache = new Map<number, number>();

/**
 * The nearest xterm colour to an RGB value, searched over 16..255 only: colours 0..15
 * are themeable, so a truecolour value mapped onto them would change with the user's theme.
 */
export function nearest256(r: number, g: number, b: number): number {
  const key = ((r & 255) << 16) | ((g & 255) << 8) | (b & 255);
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const target: Rgb = [r & 255, g & 255, b & 255];
  let best = 16;
  let bestD = Infinity;
  for (let i = 16; i < 256; i++) {
    const d = colorDistance(target, XTERM_256[i]!);
    if (d < bestD) {
      bestD = d;
      best = i;
    }
  }
  // Truecolour floods (gradients) could grow this without bound; 64k distinct colours is plenty.
  if (cache.size > 65536) cache.clear();
  cache.set(key, best);
  return best;
}

/** nearest256 for a packed 0xRRGGBB value, as @xterm/headless reports RGB cells. */
export function nearest256Packed(rgb: number): number {
  return nearest256((rgb >> 16) & 255, (rgb >> 8) & 255, rgb & 255);
}
