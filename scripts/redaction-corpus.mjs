#!/usr/bin/env node
// The redaction corpus as figures: recall over the secrets marked «» in
// test/fixtures/redaction/positive.txt and false positives over the look-alikes in
// negative.txt, for redact() alone and as the brief cleans text (redact, strip control
// sequences, redact), and with every secret split in the middle by a colour code (ESC[1m)
// as coloured tool output may split one. `node --import tsx scripts/redaction-corpus.mjs
// [DIR]` measures the src/transcript of DIR (default: this checkout), so two versions
// compare on one corpus. The unit suite asserts the same figures (test/unit/redact.test.ts).
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const here = resolve(new URL('..', import.meta.url).pathname);
const dir = resolve(process.argv[2] ?? here);
const { redact } = await import(pathToFileURL(join(dir, 'src/transcript/redact.ts')).href);
const { stripControls } = await import(pathToFileURL(join(dir, 'src/transcript/sanitize.ts')).href);

function samples(file) {
  const out = [];
  let cur;
  for (const line of readFileSync(join(here, 'test/fixtures/redaction', file), 'utf8').split('\n')) {
    if (line.startsWith('=== ')) {
      if (cur) out.push(cur);
      cur = { title: line.slice(4).trim(), lines: [] };
    } else if (cur) cur.lines.push(line);
  }
  if (cur) out.push(cur);
  return out.map((s) => ({ title: s.title, text: s.lines.join('\n').replace(/\n+$/, '') }));
}

const positives = samples('positive.txt');
const negatives = samples('negative.txt');
const split = (secret) => `${secret.slice(0, secret.length >> 1)}\u001b[1m${secret.slice(secret.length >> 1)}`;
const cleaner = (s) => redact(stripControls(redact(s)));
for (const [name, fn, cut] of [
  ['redact', redact, false],
  ['brief (redact, strip, redact)', cleaner, false],
  ['redact, secrets split by ESC[1m', redact, true],
  ['brief, secrets split by ESC[1m', cleaner, true],
]) {
  let secrets = 0;
  let caught = 0;
  const missed = new Set();
  for (const s of positives) {
    const parts = s.text.split(/«|»/);
    const out = fn(parts.map((p, i) => (cut && i % 2 ? split(p) : p)).join(''));
    const shown = stripControls(out);
    for (let i = 1; i < parts.length; i += 2) {
      secrets++;
      if (shown.includes(parts[i]) || out.includes(parts[i])) missed.add(s.title);
      else caught++;
    }
  }
  const touched = negatives.filter((s) => fn(s.text) !== s.text).map((s) => s.title);
  console.log(
    `${name}: recall ${caught}/${secrets} (${((100 * caught) / secrets).toFixed(1)}%), false positives ${touched.length}/${negatives.length}` +
      (missed.size ? `\n  missed kinds: ${[...missed].sort().join(', ')}` : '') +
      (touched.length ? `\n  touched: ${touched.join('; ')}` : ''),
  );
}
