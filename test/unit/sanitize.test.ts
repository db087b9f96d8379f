// stripControls: what an agent wrote can be shown in baton's own views without any of it
// acting on the user's terminal; printable text, newlines and tabs are kept as they are.
// controlView: the same text with a map back to the original, which redaction reads.
import fc from 'fast-check';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { controlView, stripControls } from '../../src/transcript/sanitize.js';

const t = suite('stripControls');

const ESC = '\u001b';
const BEL = '\u0007';
const ST = `${ESC}\\`;

t('colours and styles (SGR) go, the text stays', () => {
  assert.is(stripControls(`${ESC}[1;31merror${ESC}[0m: ${ESC}[38;2;255;0;0mred${ESC}[m`), 'error: red');
});

t('cursor movement, erasing, the alternate screen and modes go', () => {
  const s = `${ESC}[2J${ESC}[H${ESC}[?1049h${ESC}[10;5Hx${ESC}[K${ESC}[?25l${ESC}[?1049l${ESC}7${ESC}8${ESC}c`;
  assert.is(stripControls(s), 'x');
});

t('OSC sequences go whole: titles, hyperlinks (the link text stays), notifications, clipboard', () => {
  assert.is(stripControls(`${ESC}]0;evil title${BEL}after`), 'after');
  assert.is(stripControls(`${ESC}]2;title${ST}after`), 'after');
  assert.is(stripControls(`${ESC}]8;;https://evil.example${ST}click${ESC}]8;;${ST}`), 'click');
  assert.is(stripControls(`${ESC}]9;done${BEL}${ESC}]777;notify;a;b${BEL}ok`), 'ok');
  assert.is(stripControls(`${ESC}]52;c;aGVsbG8=${BEL}ok`), 'ok');
});

t('DCS and other string controls go', () => {
  assert.is(stripControls(`${ESC}Pq#0;2;0;0;0${ST}text`), 'text');
  assert.is(stripControls(`${ESC}_apc payload${ST}text`), 'text');
});

t('8-bit C1 introducers and every other C1 control go', () => {
  assert.is(stripControls('\u009b31mred\u009b0m'), 'red');
  assert.is(stripControls('a\u0085b\u008dc\u009fd\u0080e'), 'abcde');
});

t('C0 controls and DEL go except newline and tab; CR goes too', () => {
  assert.is(stripControls('a\u0000b\u0007c\u0008d\u000be\u000cf\u007fg'), 'abcdefg');
  assert.is(stripControls('line1\r\nline2\tcol\n'), 'line1\nline2\tcol\n');
  assert.is(stripControls('50%\r100%'), '50%100%');
});

t('an unterminated or broken sequence leaves only printable debris, never an ESC', () => {
  for (const s of [`${ESC}[31`, `${ESC}]0;title`, `x${ESC}`, `${ESC}${ESC}[`, `${ESC}[?1049`]) {
    const out = stripControls(s);
    assert.not.ok(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/.test(out), JSON.stringify(s));
  }
});

t('printable unicode is untouched: accents, CJK, emoji, combining marks, RTL text', () => {
  const s = 'naïve 日本語 🎉 e\u0301 שלום \u00a0nbsp';
  assert.is(stripControls(s), s);
});

t('a clean text comes back as the same string; the result is never longer and a second pass changes nothing', () => {
  const clean = 'plain text\n\twith tabs';
  assert.is(stripControls(clean), clean);
  const dirty = `${ESC}[31mred${ESC}[0m\r\n${ESC}]0;t${BEL}\u0000`;
  const once = stripControls(dirty);
  assert.ok(once.length <= dirty.length);
  assert.is(stripControls(once), once);
});

t('every code point below U+00A0 except tab and newline is gone after one pass', () => {
  let all = '';
  for (let c = 0; c < 0xa0; c++) all += String.fromCharCode(c);
  const out = stripControls(all);
  assert.not.ok(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/.test(out));
  assert.ok(out.includes('\t') && out.includes('\n'));
  assert.ok(out.includes('~') && out.includes(' '));
});

const v = suite('controlView');

/** Pieces a terminal stream is made of: text, escape sequences whole or cut, lone controls. */
const piece = fc.oneof(
  fc.string({ maxLength: 6 }),
  fc.constantFrom(
    `${ESC}[1m`,
    `${ESC}[0m`,
    `${ESC}[38;5;196m`,
    `${ESC}]0;title${BEL}`,
    `${ESC}]8;;http://x${ST}`,
    `${ESC}P1$r${ST}`,
    '\u009b1m',
    `${ESC}7`,
    `${ESC}[`,
    ESC,
    '\r',
    '\u0000',
    '\u009d',
    'AKIA',
    '[1m',
    'm',
  ),
);

v('its text is stripControls exactly, and each character maps to the same character in the original, in order', () => {
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 12 }), (parts) => {
      const text = parts.join('');
      const view = controlView(text);
      const stripped = stripControls(text);
      if (!view) return stripped === text;
      if (view.text !== stripped || view.at.length !== stripped.length) return false;
      for (let j = 0; j < view.at.length; j++) {
        if (text[view.at[j]!] !== view.text[j]) return false;
        if (j > 0 && view.at[j]! <= view.at[j - 1]!) return false;
      }
      return true;
    }),
    { numRuns: 2000 },
  );
});

v('a sequence that splits a word maps the word back around it', () => {
  const text = `key AKIA${ESC}[1mIOSF${ESC}[0m.`;
  const view = controlView(text)!;
  assert.is(view.text, 'key AKIAIOSF.');
  const start = view.text.indexOf('AKIA');
  assert.is(text.slice(view.at[start]!, view.at[start + 7]! + 1), `AKIA${ESC}[1mIOSF`);
  assert.is(controlView('no controls here'), undefined);
});

t.run();
v.run();
