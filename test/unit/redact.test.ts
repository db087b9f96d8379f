// Credential redaction, both ways: every sample in test/fixtures/redaction/positive.txt is
// redacted exactly where its secrets are (and nowhere else), every sample in negative.txt
// comes out unchanged; markers never lengthen a text; entries and values are redacted deeply.
import { readFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { redact, redactEntry, redactionMarker, redactValue } from '../../src/transcript/redact.js';
import type { Entry } from '../../src/transcript/types.js';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/redaction/${name}`, import.meta.url), 'utf8');

interface Sample {
  title: string;
  text: string;
}

/** Blocks after "=== title" lines; '#' lines before the first block are comments. */
function samples(file: string): Sample[] {
  const out: Sample[] = [];
  let cur: { title: string; lines: string[] } | undefined;
  for (const line of fixture(file).split('\n')) {
    if (line.startsWith('=== ')) {
      if (cur) out.push({ title: cur.title, text: cur.lines.join('\n') });
      cur = { title: line.slice(4).trim(), lines: [] };
    } else if (cur) cur.lines.push(line);
  }
  if (cur) out.push({ title: cur.title, text: cur.lines.join('\n') });
  return out.map((s) => ({ ...s, text: s.text.replace(/\n+$/, '') }));
}

const corpus = suite('redaction corpus');

const positives = samples('positive.txt');
const negatives = samples('negative.txt');

corpus('the corpus has samples for every kind of credential', () => {
  const kinds = new Set(positives.flatMap((s) => s.title.split(' ')));
  for (const k of ['aws-key', 'aws-secret', 'github-token', 'openai-key', 'anthropic-key', 'slack-token', 'google-api-key', 'private-key', 'bearer', 'password', 'secret', 'api-key', 'access-token', 'refresh-token']) {
    assert.ok(kinds.has(k), `no positive sample of ${k}`);
  }
  assert.ok(negatives.length >= 15);
});

for (const s of positives) {
  corpus(`redacts ${s.title}: ${s.text.split('\n')[0]!.slice(0, 50)}`, () => {
    const parts = s.text.split(/«|»/);
    assert.ok(parts.length >= 3 && parts.length % 2 === 1, 'sample marks its secrets with «»');
    const input = parts.join('');
    const out = redact(input);
    const kinds = s.title.split(' ');
    // Expected: the same text with each secret replaced by the marker of one listed kind.
    let pattern = '^';
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i]!;
      if (i % 2 === 0) pattern += part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      else pattern += `(?:${kinds.map((k) => redactionMarker(k, part.length).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})`;
    }
    assert.match(out, new RegExp(`${pattern}$`), `got:\n${out}`);
    for (let i = 1; i < parts.length; i += 2) assert.not.ok(out.includes(parts[i]!), 'the secret is gone');
    assert.ok(out.length <= input.length, 'never longer');
    assert.is(redact(out), out, 'redacting twice changes nothing');
  });
}

for (const s of negatives) {
  corpus(`leaves alone: ${s.title}`, () => {
    assert.is(redact(s.text), s.text);
  });
}

const rules = suite('redaction rules');

rules('markers fit the span they replace', () => {
  assert.is(redactionMarker('github-token', 40), '[REDACTED:github-token]');
  assert.is(redactionMarker('private-key', 15), '[REDACTED]');
  assert.is(redactionMarker('password', 7), '***');
  assert.is(redactionMarker('password', 2), '**');
  for (let n = 1; n < 40; n++) assert.ok(redactionMarker('anthropic-key', n).length <= n);
});

rules('a credential in running text keeps its neighbours', () => {
  const key = 'AKIA' + 'ABCDEFGHIJKLMNOP';
  assert.is(redact(`id=${key}, region=eu`), 'id=[REDACTED:aws-key], region=eu');
  assert.is(redact(`(${key})`), '([REDACTED:aws-key])');
});

rules('a PEM block inside a long text is redacted whole, the rest kept', () => {
  const pem = '-----BEGIN PRIVATE KEY-----\n' + 'QUFBQUFB'.repeat(8) + '\n'.repeat(1) + 'QUFB==\n-----END PRIVATE KEY-----';
  const out = redact(`before\n${pem}\nafter`);
  assert.is(out, 'before\n[REDACTED:private-key]\nafter');
});

rules('two keys in one text, and text between them, stay apart', () => {
  const a = 'ghp_' + 'a'.repeat(36);
  const b = 'xoxb-' + '1'.repeat(12) + '-' + 'b'.repeat(20);
  assert.is(redact(`${a} and ${b}`), '[REDACTED:github-token] and [REDACTED:slack-token]');
});

rules('a key right after a colour code is still a key (coloured CLI output)', () => {
  const key = 'ghp_' + 'C'.repeat(36);
  assert.is(redact(`token:\u001b[1;32m${key}\u001b[0m`), 'token:\u001b[1;32m[REDACTED:github-token]\u001b[0m');
  assert.is(redact(`x\u001b[31mAKIAABCDEFGHIJKLMNOP`), 'x\u001b[31m[REDACTED:aws-key]');
});

rules('unicode around a key survives', () => {
  const key = 'AIza' + 'x'.repeat(35);
  assert.is(redact(`clé: ${key} 🎉`), 'clé: [REDACTED:google-api-key] 🎉');
});

rules('short and plain texts come back as the same string', () => {
  const s = 'just some text about tokens and passwords';
  assert.is(redact(s), s);
  assert.is(redact(''), '');
});

const values = suite('redactValue and redactEntry');

values('redactValue walks objects and arrays and redacts secret-named fields by key', () => {
  const v = { cmd: ['curl', '-H', 'Authorization: Bearer abcdefghijklmnopqr'], nested: { password: 'hunter2', api_key: '$KEY', n: 1 } };
  const out = redactValue(v) as typeof v;
  assert.equal(out, { cmd: ['curl', '-H', 'Authorization: Bearer [REDACTED:bearer]'], nested: { password: '***', api_key: '$KEY', n: 1 } });
  assert.is(v.nested.password, 'hunter2', 'the input is not changed');
});

values('redactValue returns the same reference when nothing needs redacting', () => {
  const v = { a: [1, 'two', { three: 'x' }], b: null };
  assert.is(redactValue(v), v);
});

values('a "__proto__" field from JSON stays a plain field', () => {
  const v = JSON.parse('{"__proto__": {"password": "hunter2"}, "ok": 1}') as Record<string, unknown>;
  const out = redactValue(v) as Record<string, unknown>;
  assert.equal(JSON.stringify(out), '{"__proto__":{"password":"***"},"ok":1}');
});

const base = { seq: 1, at: '2026-01-01T00:00:00.000Z', author: { type: 'system' as const }, segment: 's1' };
const ghp = 'ghp_' + 'Z'.repeat(36);

values('redactEntry covers text, tool input and output, approval detail and unknown payloads', () => {
  const cases: [Entry, (e: Entry) => string][] = [
    [{ ...base, kind: 'user_message', text: `use ${ghp}` }, (e) => (e as { text: string }).text],
    [{ ...base, kind: 'agent_text', text: ghp }, (e) => (e as { text: string }).text],
    [{ ...base, kind: 'reasoning', text: ghp }, (e) => (e as { text: string }).text],
    [{ ...base, kind: 'notice', text: ghp }, (e) => (e as { text: string }).text],
    [{ ...base, kind: 'error', text: ghp }, (e) => (e as { text: string }).text],
    [{ ...base, kind: 'tool_call', toolCallId: 't', toolName: 'Bash', input: { command: `export T=${ghp}` } }, (e) => JSON.stringify((e as { input: unknown }).input)],
    [{ ...base, kind: 'tool_result', toolCallId: 't', toolName: 'Bash', output: ghp, isError: false }, (e) => (e as { output: string }).output],
    [{ ...base, kind: 'approval', decision: 'allow', detail: ghp }, (e) => (e as { detail: string }).detail],
    [{ ...base, kind: 'unknown', originalKind: 'future', raw: { deep: [ghp] } }, (e) => JSON.stringify((e as { raw: unknown }).raw)],
  ];
  for (const [entry, field] of cases) {
    const out = redactEntry(entry);
    assert.is.not(out, entry, entry.kind);
    assert.ok(field(out).includes('[REDACTED:github-token]'), entry.kind);
    assert.not.ok(field(out).includes(ghp), entry.kind);
    assert.ok(field(entry).includes(ghp), `${entry.kind}: the input entry is not changed`);
    assert.is(out.seq, entry.seq);
  }
});

values('redactEntry returns the same entry when there is nothing to redact', () => {
  const clean: Entry[] = [
    { ...base, kind: 'user_message', text: 'hello' },
    { ...base, kind: 'tool_call', toolCallId: 't', toolName: 'Read', input: { file_path: 'a.ts' } },
    { ...base, kind: 'turn_end' },
    { ...base, kind: 'handoff', from: null, to: { harness: 'a', model: 'm' }, newSegment: 's1', switchId: 'x', mode: 'fresh', briefChars: 0, uptoSeq: 0 },
  ];
  for (const e of clean) assert.is(redactEntry(e), e, e.kind);
});

corpus.run();
rules.run();
values.run();
