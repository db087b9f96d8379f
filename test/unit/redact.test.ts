// Credential redaction, both ways: every sample in test/fixtures/redaction/positive.txt is
// redacted exactly where its secrets are (and nowhere else), every sample in negative.txt
// comes out unchanged; markers never lengthen a text; entries and values are redacted deeply;
// control sequences never hide a key; and redaction holds wherever text is kept or shown
// (an entry committed, a brief, a title, and what the views print of a log written raw).
import { readFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { buildBrief } from '../../src/transcript/brief.js';
import { redact, redactEntry, redactionMarker, redactValue } from '../../src/transcript/redact.js';
import { isRendered, renderEntries, renderEntry, renderMarkdown } from '../../src/transcript/render-text.js';
import { titleFrom } from '../../src/transcript/store-meta.js';
import { Transcript } from '../../src/transcript/transcript.js';
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

const KINDS = [
  'aws-key',
  'aws-secret',
  'github-token',
  'openai-key',
  'anthropic-key',
  'slack-token',
  'google-api-key',
  'private-key',
  'bearer',
  'password',
  'secret',
  'api-key',
  'access-token',
  'refresh-token',
  'client-secret',
  'token',
  'stripe-key',
  'slack-webhook',
  'jwt',
  'npm-token',
  'gitlab-token',
  'sendgrid-key',
  'azure-key',
  'signature',
  'basic-auth',
  'huggingface-token',
  'pypi-token',
  'digitalocean-token',
  'shopify-token',
  'discord-webhook',
  'google-oauth-secret',
];

/** The secrets a sample marks with «». */
const secretsOf = (s: Sample) => s.text.split(/«|»/).filter((_, i) => i % 2 === 1);
const unmarked = (s: Sample) => s.text.replace(/«|»/g, '');

corpus('the corpus has at least 60 secrets and 60 look-alikes, and samples of every kind of credential', () => {
  const kinds = new Set(positives.flatMap((s) => s.title.split(' ')));
  for (const k of KINDS) assert.ok(kinds.has(k), `no positive sample of ${k}`);
  for (const k of kinds) assert.ok(KINDS.includes(k), `${k} is not a known kind`);
  assert.ok(positives.flatMap(secretsOf).length >= 60, `${positives.flatMap(secretsOf).length} secrets`);
  assert.ok(negatives.length >= 60, `${negatives.length} look-alikes`);
});

corpus('recall is 100% and false positives 0, counted over the whole corpus', () => {
  const secrets = positives.flatMap((s) => secretsOf(s).map((secret) => ({ secret, out: redact(unmarked(s)) })));
  const missed = secrets.filter((x) => x.out.includes(x.secret)).map((x) => x.secret);
  const touched = negatives.filter((s) => redact(s.text) !== s.text).map((s) => s.title);
  assert.equal({ missed, touched }, { missed: [], touched: [] });
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

const controls = suite('control sequences never hide a key');
const ESC = '\u001b';

controls('a key split by an escape sequence is found, and replaced with the sequences inside it', () => {
  assert.is(redact(`AKIA${ESC}[1mIOSFODNN7EXAMPLE`), '[REDACTED:aws-key]');
  assert.is(redact(`id=${ESC}[33mAKIA${ESC}[1mIOSFODNN7EXAMPLE${ESC}[0m, ok`), `id=${ESC}[33m[REDACTED:aws-key]${ESC}[0m, ok`);
});

controls('split by an OSC title, a carriage return, an 8-bit CSI or a NUL', () => {
  const gh = 'ghp_' + 'R'.repeat(36);
  for (const cut of [`${ESC}]0;title\u0007`, '\r', '\u009b1m', '\u0000']) {
    const out = redact(`token ${gh.slice(0, 10)}${cut}${gh.slice(10)} end`);
    assert.is(out, 'token [REDACTED:github-token] end', JSON.stringify(cut));
  }
  const stripe = 'sk_live_' + 'F4KE'.repeat(6);
  assert.is(redact(`STRIPE=${stripe.slice(0, 12)}${ESC}[2m${stripe.slice(12)}`), 'STRIPE=[REDACTED:stripe-key]');
});

controls('a secret found by its context is found through sequences too', () => {
  // The sequence before the value is not part of it and stays.
  assert.is(redact(`DB_PASSWORD=${ESC}[1mhunter2${ESC}[0mFAKE`), `DB_PASSWORD=${ESC}[1m[REDACTED]`);
  assert.is(redact(`postgres://app:s3cr${ESC}[4met@db/x`), 'postgres://app:[REDACTED]@db/x');
});

controls('in a tool input: stored redacted, and the brief shows neither the key nor the sequence', () => {
  const tr = new Transcript({ id: 'c1' });
  tr.startSegment({ harness: 'claude', model: 'opus', switchId: 'a' });
  tr.apply({ type: 'user_text', text: 'configure the bucket' });
  tr.apply({ type: 'tool_call', toolCallId: 't1', toolName: 'Bash', input: { command: `aws configure set aws_access_key_id AKIA${ESC}[1mIOSFODNN7EXAMPLE` } });
  tr.apply({ type: 'tool_result', toolCallId: 't1', output: `AKIA${ESC}[1mIOSFODNN7EXAMPLE` });
  tr.apply({ type: 'turn_end' });
  const stored = JSON.stringify(tr.entries);
  assert.not.ok(stored.includes('IOSFODNN7EXAMPLE'), stored);
  const brief = buildBrief(tr, { target: { harness: 'codex', model: 'gpt-5', title: 'Codex' }, mode: 'fresh', maxChars: 20_000 }).text!;
  assert.not.ok(brief.includes('IOSFODNN7EXAMPLE'), brief);
  assert.not.ok(brief.includes('u001b'), 'no escaped sequence either');
  assert.ok(brief.includes('aws_access_key_id [REDACTED:aws-key]'), brief);
});

controls('never longer, and a second pass changes nothing, whatever sequences surround a key', () => {
  // No unfinished `ESC[`: it takes the letter after it as its final byte, so the text shown
  // (by a terminal as by stripControls) is no longer the key.
  const seqs = ['', `${ESC}[1m`, `${ESC}[0m`, `${ESC}]0;t\u0007`, '\r', '\u009b0m'];
  for (const a of seqs)
    for (const b of seqs)
      for (const c of seqs) {
        const text = `key ${a}AKIA${b}IOSFODNN7${c}EXAMPLE${a} y`;
        const out = redact(text);
        assert.ok(out.length <= text.length, JSON.stringify(text));
        assert.is(redact(out), out, JSON.stringify(text));
        assert.not.ok(out.includes('EXAMPLE'), JSON.stringify(text));
      }
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
    [
      { ...base, kind: 'tool_call', toolCallId: 't', toolName: 'Bash', input: { command: `export T=${ghp}` } },
      (e) => JSON.stringify((e as { input: unknown }).input),
    ],
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

values("redactEntry covers a handoff's title and git facts (the card is regenerated from them)", () => {
  const e: Entry = {
    ...base,
    kind: 'handoff',
    from: null,
    to: { harness: 'a', model: 'm' },
    newSegment: 's1',
    switchId: 'x',
    mode: 'fresh',
    briefChars: 0,
    uptoSeq: 0,
    briefTitle: `deploy ${ghp}`,
    git: { branch: 'main', contextFiles: [{ path: '.context/env', text: `TOKEN=${ghp}` }] },
  };
  const out = redactEntry(e);
  assert.not.ok(JSON.stringify(out).includes(ghp));
  assert.is((out as { briefTitle: string }).briefTitle, 'deploy [REDACTED:github-token]');
  assert.ok(JSON.stringify(e).includes(ghp), 'the input entry is not changed');
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

const everywhere = suite('redaction wherever text is kept or shown');
const sk = 'sk_live_' + 'F4KEabcdefghijklmnopqrst';

everywhere('an entry written raw (by an older baton) renders redacted: show, --expand, the Markdown export, the TUI view', () => {
  const raw: Entry[] = [
    { ...base, seq: 1, kind: 'user_message', text: `use ${sk}` },
    { ...base, seq: 2, kind: 'reasoning', text: `the key ${sk} looks live` },
    {
      ...base,
      seq: 3,
      kind: 'tool_call',
      toolCallId: 't',
      toolName: 'Bash',
      input: { command: `curl -u ${sk}: https://api.stripe.com`, env: { STRIPE_PASSWORD: 'hunter2FAKE' }, split: `AKIA${ESC}[1mIOSFODNN7EXAMPLE` },
    },
    { ...base, seq: 4, kind: 'tool_result', toolCallId: 't', toolName: 'Bash', output: `key=${sk}\n${'x'.repeat(10_000)}` },
    { ...base, seq: 5, kind: 'approval', decision: 'allow', detail: `run with ${sk}` },
    { ...base, seq: 6, kind: 'notice', text: `rotated ${sk}` },
    { ...base, seq: 7, kind: 'error', text: `401 for ${sk}` },
  ] as Entry[];
  const outs = [
    renderEntries(raw),
    renderEntries(raw, { expandTools: true }),
    renderMarkdown(raw, `title ${sk}`),
    raw.flatMap((e) => renderEntry(e)).join('\n'),
  ];
  for (const out of outs) {
    assert.not.ok(out.includes('F4KEabcdef'), out);
    assert.not.ok(out.includes('hunter2FAKE'), out);
    assert.not.ok(out.includes('IOSFODNN7EXAMPLE'), out);
    assert.ok(out.includes('[REDACTED:stripe-key]'), out);
  }
});

everywhere('isRendered says exactly which entries renderEntry shows', () => {
  const all: Entry[] = [
    { ...base, kind: 'user_message', text: 'hi' },
    { ...base, kind: 'turn_end' },
    { ...base, kind: 'turn_end', usage: { inputTokens: 3 } },
    { ...base, kind: 'turn_end', costUsd: 0.5 },
    { ...base, kind: 'agent_session', harness: 'claude', agentSession: 's' },
    { ...base, kind: 'cursor', harness: 'claude', agentSession: 's', deliveredSeq: 1 },
    { ...base, kind: 'reset', toSeq: 1 },
    { ...base, kind: 'unknown', originalKind: 'future', raw: {} },
  ];
  for (const e of all) assert.is(isRendered(e), renderEntry(e).length > 0, JSON.stringify(e));
});

everywhere('no secret of the corpus reaches a brief, from a message, a tool input or a tool output', () => {
  const tr = new Transcript({ id: 'c1' });
  tr.startSegment({ harness: 'claude', model: 'opus', switchId: 'a' });
  positives.forEach((s, i) => {
    const text = unmarked(s);
    tr.apply({ type: 'user_text', text });
    tr.apply({ type: 'tool_call', toolCallId: `t${i}`, toolName: 'Bash', input: { command: text } });
    tr.apply({ type: 'tool_result', toolCallId: `t${i}`, output: text });
    tr.apply({ type: 'turn_end' });
  });
  const brief = buildBrief(tr, {
    target: { harness: 'codex', model: 'gpt-5', title: 'Codex' },
    mode: 'fresh',
    maxChars: 200_000,
    title: unmarked(positives[0]!),
  }).text!;
  assert.ok(brief.includes('[REDACTED:stripe-key]'));
  const seen = positives.flatMap(secretsOf).filter((secret) => brief.includes(secret));
  assert.equal(seen, []);
});

everywhere('a title is redacted before it is cut, so a key across the 60-character bound leaves nothing', () => {
  // The key ends past the bound: cut first, its first 29 characters would no longer be a key.
  const prompt = `deploy billing to prod with ${sk} and then run the smoke tests`;
  const title = titleFrom(prompt);
  assert.ok(title.length <= 60);
  assert.is(title, 'deploy billing to prod with [REDACTED:stripe-key] and then …');
  assert.is(titleFrom(`  fix\tthe   parser\nsecond line`), 'fix the parser');
});

corpus.run();
rules.run();
controls.run();
values.run();
everywhere.run();
