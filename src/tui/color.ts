// Colour reduction for the TUI: the xterm 256-colour palette and a nearest-colour match in
// a perceptual space (OKLab) for truecolour cells on a terminal without truecolour (and
// for blessed, which draws at most 256 colours; its own colors.match turns saturated
// colours grey). Pure; it must never touch a terminal.

export type Rgb = readonly [number, number, number];

/** The six channel levels of the xterm 6x6x6 colour cube (indices 16..231). */
export const CUBE_LEVELS = [0, 95, 135, 175, 215, 255] as const;

/** xterm's defaults for the 16 themeable colours; terminals may show them differently. */
const ANSI16: Rgb[] = [
  [0, 0, 0],
  [205, 0, 0],
  [0, 205, 0],
  [205, 205, 0],
  [0, 0, 238],
  [205, 0, 205],
  [0, 205, 205],
  [229, 229, 229],
  [127, 127, 127],
  [255, 0, 0],
  [0, 255, 0],
  [255, 255, 0],
  [92, 92, 255],
  [255, 0, 255],
  [0, 255, 255],
  [255, 255, 255],
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

/** sRGB channel (0..255) to linear light. */
function linear(c: number): number {
  const v = c / 255;
  return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
}

/** Björn Ottosson's OKLab: a perceptual space where Euclidean distance tracks what eyes see. */
export function oklab(rgb: Rgb): [number, number, number] {
  const r = linear(rgb[0]);
  const g = linear(rgb[1]);
  const b = linear(rgb[2]);
  const l = Math.cbrt(0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b);
  const m = Math.cbrt(0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b);
  const s = Math.cbrt(0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b);
  return [
    0.2104542553 * l + 0.793617785 * m - 0.0040720468 * s,
    1.9779984951 * l - 2.428592205 * m + 0.4505937099 * s,
    0.0259040371 * l + 0.7827717662 * m - 0.808675766 * s,
  ];
}

const PALETTE_LAB = XTERM_256.map(oklab);

/** Squared distance in OKLab: what the nearest-colour searches minimise. */
export function colorDistance(a: Rgb, b: Rgb): number {
  return labDistance(oklab(a), oklab(b));
}

function labDistance(a: readonly number[], b: readonly number[]): number {
  const dl = a[0]! - b[0]!;
  const da = a[1]! - b[1]!;
  const db = a[2]! - b[2]!;
  return dl * dl + da * da + db * db;
}

function nearestIn(target: Rgb, from: number, to: number): number {
  const lab = oklab(target);
  let best = from;
  let bestD = Infinity;
  for (let i = from; i < to; i++) {
    const d = labDistance(lab, PALETTE_LAB[i]!);
    if (d < bestD) {
      bestD = d;
      best = i;
    }
  }
  return best;
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
  const best = nearestIn([r & 255, g & 255, b & 255], 16, 256);
  // Truecolour floods (gradients) could grow this without bound; 64k distinct colours is plenty.
  if (cache.size > 65536) cache.clear();
  cache.set(key, best);
  return best;
}

/** nearest256 for a packed 0xRRGGBB value, as @xterm/headless reports RGB cells. */
export function nearest256Packed(rgb: number): number {
  return nearest256((rgb >> 16) & 255, (rgb >> 8) & 255, rgb & 255);
}

/**
 * A colour for a terminal with only 16 (or 8) colours: palette index or 0xRRGGBB (`rgb`)
 * to the nearest of its first 16 (or 8), which are all such a terminal has.
 */
export function nearestBasic(color: number, rgb: boolean, count: 16 | 8): number {
  if (!rgb && color < count) return color;
  const c: Rgb = rgb ? [(color >> 16) & 255, (color >> 8) & 255, color & 255] : XTERM_256[color & 255]!;
  return nearestIn(c, 0, count);
}
