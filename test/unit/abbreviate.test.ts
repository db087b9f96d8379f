// Head+tail abbreviation: never longer than asked, keeps both ends, states what it left out,
// never splits a surrogate pair, and cleans only what it can show.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { abbreviate, fitText, omissionMarker } from '../../src/transcript/abbreviate.js';
import { clean } from '../../src/transcript/brief-render.js';
import { prng } from '../helpers/brief-transcripts.js';

const t = suite('abbreviate');

t('a text that fits comes back whole', () => {
  assert.is(abbreviate('short', 5), 'short');
  assert.is(fitText('short', 100, clean), 'short');
});

t('a long text keeps its head and tail around a marker that counts what was left out', () => {
  const text = 'a'.repeat(500) + 'MIDDLE' + 'z'.repeat(500);
  const out = abbreviate(text, 200);
  assert.ok(out.length <= 200);
  assert.ok(out.startsWith('aaaa') && out.endsWith('zzzz'));
  assert.not.ok(out.includes('MIDDLE'));
  const m = /\[\.\.\. (\d+) chars omitted \.\.\.\]/.exec(out)!;
  const shown = out.length - m[0].length - 2;
  assert.is(Number(m[1]), text.length - shown);
});

t('cuts at line ends when one is near', () => {
  const text = Array.from({ length: 100 }, (_, i) => `line ${i} ${'x'.repeat(20)}`).join('\n');
  const out = abbreviate(text, 400);
  const [head, , tail] = out.split(/\n(\[\.\.\. \d+ chars omitted \.\.\.\])\n/);
  assert.ok(text.startsWith(head!) && text.charAt(head!.length) === '\n', 'head ends at a line end');
  assert.ok(text.endsWith(tail!) && text.charAt(text.length - tail!.length - 1) === '\n', 'tail starts at a line start');
});

t('never splits a surrogate pair', () => {
  const text = '🎉'.repeat(300);
  for (let max = 40; max < 120; max++) {
    const out = abbreviate(text, max);
    assert.ok(out.length <= max);
    assert.not.ok(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(out), `max ${max}`);
  }
});

t('tiny limits give the marker alone, or nothing, never more than asked', () => {
  const text = 'x'.repeat(1000);
  for (let max = 0; max < 40; max++) assert.ok(abbreviate(text, max).length <= max, `max ${max}`);
  assert.is(abbreviate(text, omissionMarker(1000).length), omissionMarker(1000));
});

t('fitText on a huge body cleans only around what it shows, and a key at the cut is redacted whole', () => {
  const key = 'ghp_' + 'K'.repeat(36);
  // The key straddles where a naive cut of the head would fall.
  const body = 'a '.repeat(45) + key + ' ' + 'b'.repeat(5_000_000) + '\u001b[31m' + key + '\u001b[0m end';
  const out = fitText(body, 200, clean);
  assert.ok(out.length <= 200);
  assert.not.ok(out.includes('KKKK'), 'no part of the key is shown');
  assert.not.ok(out.includes('\u001b'));
  assert.ok(out.endsWith('[REDACTED:github-token] end'));
});

t('property: fitText never exceeds its limit and keeps both ends of clean text', () => {
  const r = prng(11);
  for (let i = 0; i < 300; i++) {
    const len = Math.floor(r() * 20_000);
    let s = '';
    while (s.length < len) s += String.fromCharCode(32 + Math.floor(r() * 90)) + (r() < 0.05 ? '\n' : '');
    const max = Math.floor(r() * 3000);
    const out = fitText(s, max, clean);
    assert.ok(out.length <= max, `len ${len} max ${max}`);
    if (s.length <= max) assert.is(out, clean(s));
  }
});

t.run();
