import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { XTERM_256, colorDistance, nearest256, nearest256Packed } from '../../src/tui/color.js';

const s = suite('color');

s("the palette is xterm's: cube levels and the grey ramp at their indices", () => {
  assert.is(XTERM_256.length, 256);
  assert.equal(XTERM_256[16], [0, 0, 0]);
  assert.equal(XTERM_256[21], [0, 0, 255]);
  assert.equal(XTERM_256[196], [255, 0, 0]);
  assert.equal(XTERM_256[231], [255, 255, 255]);
  assert.equal(XTERM_256[232], [8, 8, 8]);
  assert.equal(XTERM_256[255], [238, 238, 238]);
});

s('every colour of 16..255 maps to itself', () => {
  for (let i = 16; i < 256; i++) {
    const [r, g, b] = XTERM_256[i]!;
    assert.is(nearest256(r, g, b), i, `colour ${i}`);
  }
});

s("rgb(30,30,200) stays blue (blessed's colors.match made it grey 235)", () => {
  const c = nearest256(30, 30, 200);
  const [r, g, b] = XTERM_256[c]!;
  assert.ok(b > 150 && r < 100 && g < 100, `got ${c} = ${XTERM_256[c]}`);
  assert.is(nearest256Packed(0x1e1ec8), c);
});

s('a colour with one clearly dominant channel keeps that channel dominant', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: 2 }),
      fc.integer({ min: 150, max: 255 }),
      fc.integer({ min: 0, max: 40 }),
      fc.integer({ min: 0, max: 40 }),
      (ch, hi, lo1, lo2) => {
        const rgb3: [number, number, number] = ch === 0 ? [hi, lo1, lo2] : ch === 1 ? [lo1, hi, lo2] : [lo1, lo2, hi];
        const out = XTERM_256[nearest256(...rgb3)]!;
        const max = Math.max(...out);
        return out[ch] === max && out.filter((v) => v === max).length === 1;
      },
    ),
  );
});

s('the result is never farther than the plain cube rounding of the colour', () => {
  const levels = [0, 95, 135, 175, 215, 255];
  const round = (v: number) => levels.reduce((a, b) => (Math.abs(b - v) < Math.abs(a - v) ? b : a));
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 255 }), (r, g, b) => {
      const c = nearest256(r, g, b);
      return c >= 16 && colorDistance([r, g, b], XTERM_256[c]!) <= colorDistance([r, g, b], [round(r), round(g), round(b)]);
    }),
  );
});

s.run();
