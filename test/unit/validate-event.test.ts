// Events are checked against the transcript's types at apply(): each malformed event a
// driver can report is refused with a notice naming the driver and the field, nothing of
// it is recorded, and what memory holds is exactly what the log reads back as (the
// conversation is reloaded from disk and compared). Valid events with null optional
// fields or a tool input JSON would change are normalized the same way in memory and file.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConversation, readConversation, type OpenConversation } from '../../src/transcript/store.js';
import { checkEvent } from '../../src/transcript/validate-event.js';
import type { Entry, TranscriptEvent } from '../../src/transcript/types.js';

const user = { type: 'user' as const, name: 'ana', device: 'laptop' };
let home = '';
let opened: OpenConversation[] = [];

const t = suite('validate-event');
t.before.each(() => {
  home = mkdtempSync(join(tmpdir(), 'baton-validate-'));
});
t.after.each(async () => {
  // A failed assertion must not leave a writer behind for the next test.
  for (const c of opened) await c.close().catch(() => undefined);
  opened = [];
  rmSync(home, { recursive: true, force: true });
});

const fresh = async (): Promise<OpenConversation> => {
  const c = await createConversation(home, { cwd: '/work/repo', user });
  opened.push(c);
  return c;
};

/** A circular tool input: it cannot be written as JSON. */
const circular = () => {
  const o: Record<string, unknown> = { command: 'ls' };
  o.self = o;
  return o;
};

// Each malformed event of issue #10 (and the missing fields), with the field a notice must name.
const MALFORMED: [string, unknown, string][] = [
  ['turn_end with costUsd "NaN"', { type: 'turn_end', costUsd: 'NaN' }, 'costUsd'],
  ['turn_end with costUsd NaN', { type: 'turn_end', costUsd: Number.NaN }, 'costUsd'],
  ['turn_end with costUsd Infinity', { type: 'turn_end', costUsd: Number.POSITIVE_INFINITY }, 'costUsd'],
  ['turn_end with usage tokens as a string', { type: 'turn_end', usage: { inputTokens: '12' } }, 'usage.inputTokens'],
  ['turn_end with usage a number', { type: 'turn_end', usage: 5 }, 'usage'],
  ['session with agentSession 42', { type: 'session', agentSession: 42 }, 'agentSession'],
  ['session with an empty agentSession', { type: 'session', agentSession: '' }, 'agentSession'],
  ['tool_call with toolCallId 5', { type: 'tool_call', toolCallId: 5, toolName: 'Bash', input: {} }, 'toolCallId'],
  ['tool_result with toolCallId 5', { type: 'tool_result', toolCallId: 5, output: 'ok' }, 'toolCallId'],
  ['agent_text with text {}', { type: 'agent_text', text: {} }, 'text'],
  ['reasoning with text 7', { type: 'reasoning', text: 7 }, 'text'],
  ['user_text with text {}', { type: 'user_text', text: {} }, 'text'],
  ['user_text with an author name that is a number', { type: 'user_text', text: 'hi', author: { type: 'user', name: 1, device: 'd' } }, 'author.name'],
  ['tool_call with a circular input', { type: 'tool_call', toolCallId: 'c1', toolName: 'Bash', input: circular() }, 'input'],
  ['tool_call with a bigint in its input', { type: 'tool_call', toolCallId: 'c1', toolName: 'Bash', input: { n: 10n } }, 'input'],
  ['an unknown event type', { type: 'bogus', text: 'x' }, 'type'],
  ['an event without a type', { text: 'x' }, 'type'],
  ['an event that is not an object', null, 'event'],
  ['tool_call without toolName', { type: 'tool_call', toolCallId: 'c1', input: {} }, 'toolName'],
  ['tool_call without toolCallId', { type: 'tool_call', toolName: 'Bash', input: {} }, 'toolCallId'],
  ['tool_result without output', { type: 'tool_result', toolCallId: 'c1', toolName: 'Bash' }, 'output'],
  ['tool_result with isError "yes"', { type: 'tool_result', toolCallId: 'c1', output: 'ok', isError: 'yes' }, 'isError'],
  ['agent_text without text', { type: 'agent_text' }, 'text'],
  ['approval without decision', { type: 'approval', toolCallId: 'c1' }, 'decision'],
  ['approval with detail an object', { type: 'approval', decision: 'allow', detail: { a: 1 } }, 'detail'],
  ['notice without text', { type: 'notice' }, 'text'],
  ['error with code 3', { type: 'error', text: 'boom', code: 3 }, 'code'],
  ['session without agentSession', { type: 'session' }, 'agentSession'],
];

/** Reads the conversation back from disk and checks memory holds exactly what the file holds. */
async function sameOnDisk(id: string, memory: readonly Entry[]) {
  const back = await readConversation(home, id);
  assert.equal(back.problems, [], 'the log loads without problems');
  assert.equal(back.transcript.entries, memory, 'memory and file hold the same entries');
  await back.close();
}

for (const [name, event, field] of MALFORMED) {
  t(`refused with a notice naming the driver and the field: ${name}`, async () => {
    const c = await fresh();
    const tr = c.transcript;
    tr.startSegment({ harness: 'claude', model: 'opus', switchId: 'sw1' });
    tr.apply({ type: 'user_text', text: 'go' });
    tr.apply({ type: 'agent_text', text: 'working on it' });
    const before = tr.lastSeq;
    let out: Entry[] = [];
    try {
      out = tr.apply(event as TranscriptEvent);
    } catch (e) {
      assert.unreachable(`apply threw: ${(e as Error).message}`);
    }
    tr.apply({ type: 'turn_end' });
    const added = tr.entries.filter((e) => e.seq > before);
    // The streamed text is committed first, then the notice; nothing of the bad event.
    assert.equal(
      out.map((e) => e.kind),
      ['agent_text', 'notice'],
    );
    assert.equal(
      added.map((e) => e.kind),
      ['agent_text', 'notice', 'turn_end'],
    );
    const notice = out[1]!;
    assert.is(notice.kind, 'notice');
    if (notice.kind === 'notice') {
      assert.match(notice.text, /driver claude/);
      assert.not.match(notice.text, /\ba [aeiou]/i, `the article fits the event's name: ${notice.text}`);
      assert.ok(notice.text.includes(` ${field} `), `the notice names ${field}: ${notice.text}`);
      assert.match(notice.text, /not recorded/);
    }
    assert.equal(notice.author, { type: 'system' });
    await c.close();
    await sameOnDisk(c.id, tr.entries);
  });
}

t('one notice per driver stretch, event type and field: a driver wrong on every chunk does not flood the log', async () => {
  const c = await fresh();
  const tr = c.transcript;
  tr.startSegment({ harness: 'codex', model: 'gpt-5', switchId: 'sw1' });
  for (let i = 0; i < 50; i++) tr.apply({ type: 'agent_text', text: {} } as unknown as TranscriptEvent);
  tr.apply({ type: 'turn_end', costUsd: 'x' } as unknown as TranscriptEvent);
  assert.equal(
    tr.entries.map((e) => e.kind),
    ['handoff', 'notice', 'notice'],
  );
  // A new stretch (another driver) is told again.
  tr.startSegment({ harness: 'claude', model: 'opus', switchId: 'sw2' });
  tr.apply({ type: 'agent_text', text: {} } as unknown as TranscriptEvent);
  const last = tr.entries.at(-1)!;
  assert.ok(last.kind === 'notice' && /driver claude/.test(last.text));
  await c.close();
  await sameOnDisk(c.id, tr.entries);
});

t('valid events pass unchanged; null optional fields count as absent', async () => {
  const c = await fresh();
  const tr = c.transcript;
  tr.startSegment({ harness: 'claude', model: 'opus', switchId: 'sw1' });
  const given: TranscriptEvent = { type: 'tool_call', toolCallId: 'c1', toolName: 'Bash', input: { command: ['ls', '-la'], n: 2, ok: true, none: null } };
  const check = checkEvent(given);
  assert.ok(check.ok && check.event === given, 'an exact event is not copied');
  tr.apply(given);
  tr.apply({ type: 'tool_result', toolCallId: 'c1', output: 'ok', isError: null } as unknown as TranscriptEvent);
  tr.apply({ type: 'turn_end', costUsd: null, usage: { inputTokens: 3, outputTokens: null, extra: 'x' } } as unknown as TranscriptEvent);
  tr.apply({ type: 'agent_text', text: 'a', messageId: null } as unknown as TranscriptEvent);
  tr.apply({ type: 'agent_text', text: 'b', messageId: 'm1' });
  tr.flush();
  const kinds = tr.entries.map((e) => e.kind);
  assert.equal(kinds, ['handoff', 'tool_call', 'tool_result', 'turn_end', 'agent_text']);
  assert.equal(tr.entries[3], { ...tr.entries[3]!, kind: 'turn_end', usage: { inputTokens: 3 } });
  assert.not.ok('costUsd' in tr.entries[3]!);
  assert.is((tr.entries[2] as { isError: boolean }).isError, false);
  assert.is((tr.entries[4] as { text: string }).text, 'ab');
  await c.close();
  await sameOnDisk(c.id, tr.entries);
});

t('a tool input JSON would change is kept in its JSON form, in memory as in the file', async () => {
  const c = await fresh();
  const tr = c.transcript;
  tr.startSegment({ harness: 'codex', model: 'gpt-5', switchId: 'sw1' });
  // codex-exec sends { command: item.command } even when the item has none.
  tr.apply({ type: 'tool_call', toolCallId: 'c1', toolName: 'shell', input: { command: undefined, at: new Date(0), n: Number.NaN, list: [1, undefined] } });
  tr.apply({ type: 'tool_call', toolCallId: 'c2', toolName: 'shell', input: undefined });
  const [a, b] = tr.entries.slice(1);
  assert.equal((a as { input: unknown }).input, { at: '1970-01-01T00:00:00.000Z', n: null, list: [1, null] });
  assert.equal((b as { input: unknown }).input, {});
  await c.close();
  await sameOnDisk(c.id, tr.entries);
});

t('an event refused before any segment names no driver it does not know', () => {
  const c = checkEvent({ type: 'turn_end', costUsd: '1' });
  assert.equal(c, { ok: false, refusal: { type: 'turn_end', field: 'costUsd', problem: 'is a string, not a finite number >= 0' } });
  const u = checkEvent({ type: '\u001b]0;evil\u0007bogus' });
  assert.ok(!u.ok && u.refusal.type === 'bogus' && u.refusal.field === 'type', 'a reported type is quoted without its controls');
});

t.run();
