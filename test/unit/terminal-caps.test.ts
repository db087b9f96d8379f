// What baton learns about the terminal the user sits at: compiled terminfo entries in both
// formats (built here byte by byte, as term(5) lays them out, and the machine's own when it
// has them), and the capabilities decided from them and from COLORTERM.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, readFileSync } from 'node:fs';
import { parseTerminfo, readTerminfo } from '../../src/tui/terminfo.js';
import { commonCaps, terminalCaps, terminalCapsOf } from '../../src/tui/terminal-caps.js';

const s = suite('terminal-caps');

interface Entry {
  names: string;
  nums?: Record<number, number>;
  strs?: Record<number, string>;
  ext?: { bools?: string[]; nums?: Record<string, number>; strs?: Record<string, string> };
}

/** A compiled entry: the legacy format (16-bit numbers) or ncurses 6's (32-bit numbers). */
function compile(e: Entry, wide: boolean): Buffer {
  const parts: Buffer[] = [];
  const short = (...v: number[]) => {
    const b = Buffer.alloc(v.length * 2);
    for (const [i, x] of v.entries()) b.writeInt16LE(x, i * 2);
    return b;
  };
  const num = (v: number) => {
    const b = Buffer.alloc(wide ? 4 : 2);
    if (wide) b.writeInt32LE(v);
    else b.writeInt16LE(v);
    return b;
  };
  const pad = () => {
    if (parts.reduce((n, p) => n + p.length, 0) % 2) parts.push(Buffer.from([0]));
  };
  const names = Buffer.from(e.names + '\0', 'latin1');
  const numCount = Math.max(-1, ...Object.keys(e.nums ?? {}).map(Number)) + 1;
  const strCount = Math.max(-1, ...Object.keys(e.strs ?? {}).map(Number)) + 1;
  let table = '';
  const offsets: number[] = [];
  for (let i = 0; i < strCount; i++) {
    const v = e.strs?.[i];
    if (v === undefined) offsets.push(-1);
    else {
      offsets.push(table.length);
      table += v + '\0';
    }
  }
  parts.push(short(wide ? 0o1036 : 0o432, names.length, 2, numCount, strCount, table.length), names, Buffer.from([0, 1]));
  pad();
  for (let i = 0; i < numCount; i++) parts.push(num(e.nums?.[i] ?? -1));
  parts.push(short(...offsets), Buffer.from(table, 'latin1'));
  pad();
  if (e.ext) {
    const bools = e.ext.bools ?? [];
    const nums = Object.entries(e.ext.nums ?? {});
    const strs = Object.entries(e.ext.strs ?? {});
    let values = '';
    const valueOffsets = strs.map(([, v]) => {
      const at = values.length;
      values += v + '\0';
      return at;
    });
    let nameTable = '';
    const nameOffsets = [...bools, ...nums.map(([k]) => k), ...strs.map(([k]) => k)].map((k) => {
      const at = nameTable.length;
      nameTable += k + '\0';
      return at;
    });
    const all = values + nameTable;
    parts.push(short(bools.length, nums.length, strs.length, strs.length + nameOffsets.length, all.length), Buffer.from(bools.map(() => 1)));
    pad();
    for (const [, v] of nums) parts.push(num(v));
    parts.push(short(...valueOffsets, ...nameOffsets), Buffer.from(all, 'latin1'));
  }
  return Buffer.concat(parts);
}

const ENTRY: Entry = {
  names: 'test-term|a test terminal',
  nums: { 13: 256 },
  strs: { 30: '\x1b[2m', 311: '\x1b[3m' },
  ext: { bools: ['AX', 'Tc'], nums: { U8: 1 }, strs: { Smulx: '\x1b[4:%p1%dm', smxx: '\x1b[9m' } },
};

for (const wide of [false, true]) {
  s(`a ${wide ? '32-bit (ncurses 6)' : 'legacy'} entry: names, colours, dim, italics and the extended capabilities`, () => {
    const ti = parseTerminfo(compile(ENTRY, wide))!;
    assert.ok(ti, 'parsed');
    assert.equal(ti.names, ['test-term', 'a test terminal']);
    assert.is(ti.caps.get('colors'), 256);
    assert.is(ti.caps.get('dim'), '\x1b[2m');
    assert.is(ti.caps.get('sitm'), '\x1b[3m');
    assert.is(ti.caps.get('Tc'), true);
    assert.is(ti.caps.get('AX'), true);
    assert.is(ti.caps.get('U8'), 1);
    assert.is(ti.caps.get('Smulx'), '\x1b[4:%p1%dm');
    assert.is(ti.caps.get('smxx'), '\x1b[9m');
  });
}

s('an entry with no extended section, and things that are not entries', () => {
  const ti = parseTerminfo(compile({ names: 'plain', nums: { 13: 8 } }, false))!;
  assert.is(ti.caps.get('colors'), 8);
  assert.not.ok(ti.caps.has('sitm'));
  assert.is(parseTerminfo(Buffer.from('not a terminfo entry at all')), undefined);
  assert.is(parseTerminfo(compile(ENTRY, true).subarray(0, 40)), undefined);
});

s("the machine's own xterm-256color entry, where it has one", () => {
  const file = ['/usr/share/terminfo/x/xterm-256color', '/lib/terminfo/x/xterm-256color'].find(existsSync);
  if (!file) return;
  const ti = parseTerminfo(readFileSync(file))!;
  assert.ok(ti.names.includes('xterm-256color'));
  assert.is(ti.caps.get('colors'), 256);
  assert.is(ti.caps.get('sitm'), '\x1b[3m');
});

s('no entry is read through a name that is a path', () => {
  assert.is(readTerminfo('../../etc/passwd', {}), undefined);
  assert.is(readTerminfo('', {}), undefined);
});

const parsed = (e: Entry) => parseTerminfo(compile(e, true));

s('truecolour from COLORTERM, from Tc or RGB in terminfo, or a -direct entry; otherwise the palette', () => {
  const xterm256 = parsed({ names: 'x', nums: { 13: 256 }, strs: { 30: 'd', 311: 'i' } });
  assert.ok(terminalCaps({ TERM: 'x', COLORTERM: 'truecolor' }, xterm256).truecolor);
  assert.ok(terminalCaps({ TERM: 'x', COLORTERM: '24bit' }, xterm256).truecolor);
  assert.not.ok(terminalCaps({ TERM: 'x' }, xterm256).truecolor);
  assert.is(terminalCaps({ TERM: 'x' }, xterm256).colors, 256);
  assert.ok(terminalCaps({ TERM: 'x' }, parsed({ names: 'x', ext: { bools: ['Tc'] } })).truecolor);
  assert.ok(terminalCaps({ TERM: 'x' }, parsed({ names: 'x', ext: { bools: ['RGB'] } })).truecolor);
  assert.ok(terminalCaps({ TERM: 'x' }, parsed({ names: 'x', nums: { 13: 0x1000000 } })).truecolor);
  assert.ok(terminalCaps({ TERM: 'xterm-direct' }, undefined).truecolor);
  assert.is(terminalCaps({ TERM: 'x' }, parsed({ names: 'x', nums: { 13: 8 } })).colors, 8);
  assert.is(terminalCaps({ TERM: 'x' }, parsed({ names: 'x', nums: { 13: 16 } })).colors, 16);
});

s('dim, italic and strikethrough as terminfo has them; styled underlines from Smulx or Su', () => {
  const c = terminalCaps({ TERM: 'x' }, parsed(ENTRY));
  assert.equal([c.dim, c.italic, c.strikethrough, c.styledUnderline], [true, true, true, true]);
  const bare = terminalCaps({ TERM: 'x' }, parsed({ names: 'x', nums: { 13: 256 } }));
  assert.equal([bare.dim, bare.italic, bare.strikethrough, bare.styledUnderline], [false, false, false, false]);
  assert.ok(terminalCaps({ TERM: 'x' }, parsed({ names: 'x', ext: { bools: ['Su'] } })).styledUnderline);
});

s('with no entry: a modern terminal is assumed, except the Linux console and its kind', () => {
  const modern = terminalCaps({ TERM: 'xterm-kitty' }, undefined);
  assert.equal(
    [modern.colors, modern.dim, modern.italic, modern.strikethrough, modern.styledUnderline, modern.hyperlinks],
    [256, true, true, true, true, true],
  );
  const linux = terminalCaps({ TERM: 'linux' }, undefined);
  assert.equal([linux.italic, linux.hyperlinks, linux.styledUnderline], [false, false, false]);
});

s('several terminals get the same bytes: only what all of them have', () => {
  const modern = terminalCaps({ TERM: 'xterm-kitty', COLORTERM: 'truecolor' }, undefined);
  const old = terminalCaps({ TERM: 'x' }, parsed({ names: 'x', nums: { 13: 16 }, strs: { 30: 'd' } }));
  const both = commonCaps([modern, old])!;
  assert.equal(both, { truecolor: false, colors: 16, dim: true, italic: false, strikethrough: false, styledUnderline: false, hyperlinks: true });
  assert.equal(commonCaps([modern]), modern);
  assert.is(commonCaps([]), undefined);
});

s("a client's terminal by its TERM and COLORTERM: the server's own COLORTERM does not count", () => {
  assert.not.ok(terminalCapsOf('xterm-256color', undefined, { COLORTERM: 'truecolor', HOME: '/nonexistent' }).truecolor);
  assert.ok(terminalCapsOf('xterm-256color', 'truecolor', { HOME: '/nonexistent' }).truecolor);
});

s.run();
