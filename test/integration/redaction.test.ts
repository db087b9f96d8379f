// Redaction at rest, end to end through the command line: what `transcript import` stores
// (from a baton export or from an agent CLI's own session), the title `baton chat` gives a
// conversation (meta.json and the handoff entry), and a conversation an older baton wrote
// raw, which list, show, export, search and brief print redacted without rewriting it, and
// a fork of it stores redacted.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../src/cli.js';
import { bufferIo } from '../../src/commands/io.js';
import { createConversation } from '../../src/transcript/store.js';
import { writeFixtureDropIn } from '../helpers/acp-fixture.js';

const user = { type: 'user' as const, name: 'ana', device: 'box' };
let home = '';
let cwd = '';
let plugins = '';

async function run(args: string[], extraEnv: Record<string, string> = {}) {
  const io = bufferIo({ ...process.env, BATON_HOME: home, XDG_CONFIG_HOME: join(home, 'config'), ...extraEnv }, cwd);
  const code = await main(['--plugins', plugins, ...args], io);
  return { code, out: io.stdout(), err: io.stderr() };
}

// Shapes baton let through before (each FAKE); `secret` is the part that must never show.
const F = 'F4KE';
const SECRETS = [
  { text: `STRIPE_SECRET_KEY=sk_live_${F}abcdefghijklmnopqrst`, secret: `${F}abcdefghijklmnopqrst` },
  { text: `rk_live_${F}zyxwvutsrqponmlkjihg is the restricted one`, secret: `${F}zyxwvutsrqponmlkjihg` },
  { text: `psql postgres://app:${F}-db-pass@db.internal/prod`, secret: `${F}-db-pass` },
  { text: `DB_PASSWORD=${F}hunter2`, secret: `${F}hunter2` },
  { text: `token glpat-${F}0123456789abcdef`, secret: `${F}0123456789abcdef` },
  { text: `npm_${F}abcdefghijklmnopqrstuvwxyz012345`, secret: `${F}abcdefghijklmnopqrstuvwxyz012345` },
  { text: `SG.${F}abcdefghijklmnopqr.${F}abcdefghijklmnopqrstuvwxyz0123456789abc`, secret: `${F}abcdefghijklmnopqrstuvwxyz0123456789abc` },
  { text: `eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJmYWtlIn0.${F}signature0123456789`, secret: `${F}signature0123456789` },
  { text: `AccountName=a;AccountKey=${F}${'A'.repeat(80)}==;EndpointSuffix=core.windows.net`, secret: `${F}AAAA` },
  { text: `https://hooks.slack.com/services/T0${F}000/B0${F}000/${F}abcdefghijklmnopqrst`, secret: `${F}abcdefghijklmnopqrst` },
  { text: `SECRET_KEY=django-insecure-${F}0123456789`, secret: `insecure-${F}` },
  { text: `AKIA\u001b[1m${F}IOSFODNN7EXA`, secret: `${F}IOSFODNN7EXA` },
];
const ALL = SECRETS.map((s) => s.text).join('\n');
const TITLE_SECRET = SECRETS[0]!;

function leaks(what: string, text: string) {
  const found = SECRETS.filter((s) => text.includes(s.secret)).map((s) => s.secret);
  assert.equal(found, [], `${what} shows a secret`);
}

const storedFiles = (id: string) => {
  const dir = join(home, 'conversations', id);
  return readdirSync(dir)
    .map((f) => readFileSync(join(dir, f), 'utf8'))
    .join('\n');
};

async function printed(id: string) {
  const outs = [
    await run(['transcript', 'list']),
    await run(['transcript', 'show', id, '--expand']),
    await run(['transcript', 'export', id, '--format', 'jsonl']),
    await run(['transcript', 'export', id, '--format', 'md']),
    await run(['brief', id]),
  ];
  for (const o of outs) assert.is(o.code, 0, o.err);
  return outs.map((o) => o.out).join('\n');
}

const r = suite('redaction at rest');
r.before.each(() => {
  home = mkdtempSync(join(tmpdir(), 'baton-redact-'));
  cwd = mkdtempSync(join(tmpdir(), 'baton-redact-cwd-'));
  plugins = join(home, 'plugins');
  mkdirSync(plugins, { recursive: true });
});
r.after.each(() => {
  rmSync(home, { recursive: true, force: true });
  rmSync(cwd, { recursive: true, force: true });
});

/** A baton JSONL export, as another machine or an older baton wrote it: secrets raw. */
function rawExport(file: string) {
  const at = '2026-01-01T00:00:00.000Z';
  const sys = { type: 'system' };
  const agent = { type: 'agent', harness: 'claude', model: 'opus' };
  const lines = [
    { format: 'baton-transcript', version: 1, conversation: 'elsewhere', created: at, title: `deploy: ${TITLE_SECRET.text}` },
    {
      seq: 1,
      at,
      author: sys,
      segment: 's1',
      kind: 'handoff',
      from: null,
      to: { harness: 'claude', model: 'opus' },
      newSegment: 's1',
      switchId: 'x',
      mode: 'fresh',
      briefChars: 0,
      uptoSeq: 0,
      briefTitle: `deploy: ${TITLE_SECRET.text}`,
    },
    { seq: 2, at, author: user, segment: 's1', kind: 'user_message', text: `here are the keys\n${ALL}` },
    { seq: 3, at, author: agent, segment: 's1', kind: 'tool_call', toolCallId: 't1', toolName: 'Bash', input: { command: ALL } },
    { seq: 4, at, author: agent, segment: 's1', kind: 'tool_result', toolCallId: 't1', toolName: 'Bash', output: ALL, isError: false },
    { seq: 5, at, author: agent, segment: 's1', kind: 'agent_text', text: `noted: ${ALL}` },
  ];
  writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
}

r('transcript import --from jsonl stores no secret, and nothing printed afterwards shows one', async () => {
  const file = join(cwd, 'export.jsonl');
  rawExport(file);
  const im = await run(['transcript', 'import', '--from', 'jsonl', file]);
  assert.is(im.code, 0, im.err);
  const id = /as conversation (\S+)/.exec(im.out)![1]!;
  leaks('the stored conversation', storedFiles(id));
  const out = await printed(id);
  leaks('list, show, export and brief', out);
  assert.match(out, /\[REDACTED:stripe-key\]/);
  const search = await run(['transcript', 'search', 'REDACTED']);
  leaks('search', search.out);
});

r('a conversation written raw by an older baton is printed redacted everywhere, and its files are left as they are', async () => {
  const c = await createConversation(home, { cwd, title: 'placeholder', user });
  c.transcript.startSegment({ harness: 'claude', model: 'opus', switchId: 'a' });
  c.transcript.apply({ type: 'user_text', text: 'hello' });
  await c.close();
  const dir = join(home, 'conversations', c.id);
  // What an older baton wrote: its rules let these through, and titles were kept raw.
  const meta = JSON.parse(readFileSync(join(dir, 'meta.json'), 'utf8')) as Record<string, unknown>;
  writeFileSync(join(dir, 'meta.json'), JSON.stringify({ ...meta, title: `deploy: ${TITLE_SECRET.text}` }));
  const agent = { type: 'agent', harness: 'claude', model: 'opus' };
  const at = '2026-01-01T00:00:00.000Z';
  appendFileSync(
    join(dir, 'transcript.jsonl'),
    [
      { seq: 3, at, author: user, segment: c.transcript.currentSegment!.id, kind: 'user_message', text: ALL },
      { seq: 4, at, author: agent, segment: c.transcript.currentSegment!.id, kind: 'tool_call', toolCallId: 't1', toolName: 'Bash', input: { command: ALL } },
      {
        seq: 5,
        at,
        author: agent,
        segment: c.transcript.currentSegment!.id,
        kind: 'tool_result',
        toolCallId: 't1',
        toolName: 'Bash',
        output: ALL,
        isError: false,
      },
    ]
      .map((l) => JSON.stringify(l) + '\n')
      .join(''),
  );
  const before = storedFiles(c.id);
  const out = await printed(c.id);
  leaks('list, show, export and brief', out);
  leaks('search', (await run(['transcript', 'search', 'ACCOUNTNAME'])).out);
  assert.is(storedFiles(c.id), before, 'the log and meta.json are not rewritten');
  // A fork copies the entries into a new log: redacted as they are written.
  const fork = await run(['fork', c.id, '--at', '5']);
  assert.is(fork.code, 0, fork.err);
  leaks('the fork as stored', storedFiles(fork.out.split('\n')[0]!.trim()));
  leaks('what fork printed', fork.out + fork.err);
});

r('transcript import --from claude: the title and entries from the session log are redacted', async () => {
  const configDir = join(home, 'claude-config');
  const project = join(configDir, 'projects', 'some-project');
  mkdirSync(project, { recursive: true });
  const session = 'ad51c980-73df-4d21-8b81-2a369caef7cb';
  const log = readFileSync(new URL('../fixtures/claude/headless-session.jsonl', import.meta.url), 'utf8');
  // The first prompt carries a key; the fixture's marker is where the prompt's text is.
  writeFileSync(join(project, `${session}.jsonl`), log.replaceAll('hello FIXTURE-TOKEN-1', `deploy with ${TITLE_SECRET.text} now`));
  const im = await run(['transcript', 'import', '--from', 'claude', session], { CLAUDE_CONFIG_DIR: configDir, PATH: '/nonexistent' });
  assert.is(im.code, 0, im.err);
  const id = /as conversation (\S+)/.exec(im.out)![1]!;
  const stored = storedFiles(id);
  leaks('the imported conversation', stored);
  assert.match(stored, /deploy with STRIPE_SECRET_KEY=\[REDACTED:stripe-key\]/);
  const meta = JSON.parse(readFileSync(join(home, 'conversations', id, 'meta.json'), 'utf8')) as { title: string };
  assert.is(meta.title, 'deploy with STRIPE_SECRET_KEY=[REDACTED:stripe-key] now');
});

r('baton chat names a conversation after its first prompt without the key, in meta.json and in the handoff entry', async () => {
  writeFixtureDropIn(plugins, { name: 'alpha', title: 'Alpha', env: { ACP_FIXTURE_HOME: join(home, 'alpha-sessions') } });
  const c = await run(['chat', '--json', '--new', '--agent', 'alpha', `rotate ${TITLE_SECRET.text} please`]);
  assert.is(c.code, 0, c.err);
  const id = (JSON.parse(c.out) as { conversation: string }).conversation;
  leaks('the conversation as stored', storedFiles(id));
  const meta = JSON.parse(readFileSync(join(home, 'conversations', id, 'meta.json'), 'utf8')) as { title: string };
  assert.is(meta.title, 'rotate STRIPE_SECRET_KEY=[REDACTED:stripe-key] please');
  const list = await run(['transcript', 'list']);
  assert.match(list.out, /rotate STRIPE_SECRET_KEY=\[REDACTED:stripe-key\] please/);
});

r.run();
