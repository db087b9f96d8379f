// The renderers behind `transcript show`, the Markdown export and the TUI's transcript
// view: a log written by an older baton (or by hand) may hold any value in a field the
// loader does not check, and every string in it may carry terminal controls. Both render
// without throwing and without a control character.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parseLog } from '../../src/transcript/store-log.js';
import { authorLabel, renderEntries, renderEntry, renderMarkdown } from '../../src/transcript/render-text.js';
import type { Entry } from '../../src/transcript/types.js';
import { buildBrief } from '../../src/transcript/brief.js';

const ESC = '\u001b';
const BEL = '\u0007';
const NUL = '\u0000';
const CSI8 = '\u009b';
const DIRTY = `${ESC}]0;pwned${BEL}${ESC}[2J${NUL}${CSI8}31m`;
/** Any C0 control but \n and \t, DEL, or C1: what must never reach a terminal from data. */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

const sys = { type: 'system' };
const agent = { type: 'agent', harness: 'claude', model: 'opus' };
const header = { format: 'baton-transcript', version: 1, conversation: 'abcd1234', created: '2026-01-01T00:00:00.000Z' };
const line = (seq: number, kind: string, fields: Record<string, unknown>, author: unknown = sys) => ({
  seq,
  kind,
  at: '2026-01-01T00:00:00.000Z',
  author,
  segment: 's1',
  ...fields,
});

/** Entries as an older baton stored them, each with a value of the wrong type in a field it may hold. */
function badLog(): Entry[] {
  const lines = [
    header,
    line(1, 'handoff', { from: null, to: { harness: 'claude', model: 'opus' }, newSegment: 's1', switchId: 'a', mode: 'fresh', briefChars: 0, uptoSeq: 0 }),
    line(2, 'user_message', { text: 'hi' }, { type: 'user', name: { first: 'ana' }, device: 7 }),
    line(3, 'agent_text', { text: 'hello' }, { type: 'agent', harness: 'constructor', model: ['x'] }),
    line(4, 'turn_end', { costUsd: 'NaN', usage: { inputTokens: { n: 1 }, outputTokens: '5' } }, agent),
    line(5, 'turn_end', { costUsd: { usd: 1 }, usage: 'lots' }, agent),
    line(6, 'turn_end', { costUsd: null, usage: null }, agent),
    line(7, 'approval', { decision: 'allow', detail: { why: 'x' } }),
    line(8, 'approval', { decision: 'deny', detail: 5 }),
    line(9, 'handoff', { from: 'claude', to: { harness: 'codex', model: 'gpt-5' }, newSegment: 's2', switchId: 'b', mode: 7, briefChars: 'many', uptoSeq: 8 }),
    line(10, 'reset', { toSeq: 3, undoes: { seq: 1 } }),
    line(11, 'user_message', { text: 'who' }, { type: 'robot' }),
    // Fields the loader checks: these come back as unknown entries.
    line(12, 'agent_session', { harness: 'claude', agentSession: 42 }),
    line(13, 'tool_call', { toolCallId: 5, toolName: 'Bash', input: {} }, agent),
    line(14, 'agent_text', { text: {} }, agent),
    line(15, 'approval', { decision: { yes: 1 }, detail: ['x'], toolCallId: 9 }),
    line(16, 'error', { text: 5, code: 404 }, agent),
    line(17, 'tool_result', { toolCallId: 't', toolName: 7, output: { big: true }, isError: false }, agent),
    line(18, 'notice', { text: null }),
  ];
  const r = parseLog(lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  assert.is(r.entries.length, 18);
  return r.entries;
}

const t = suite('render-text');

t('bad stored values are rendered as text or left out, never thrown on', () => {
  const entries = badLog();
  let text = '';
  let md = '';
  try {
    text = renderEntries(entries) + renderEntries(entries, { expandTools: true, titles: { claude: 'Claude Code' } });
    md = renderMarkdown(entries, 'title');
  } catch (e) {
    assert.unreachable(`rendering threw: ${(e as Error).stack}`);
  }
  assert.match(text, /\[4\] turn end · cost unreadable/);
  assert.match(text, /\[5\] turn end · cost unreadable/);
  assert.not.match(text, /\[6\] turn end/, 'null cost and usage: nothing to say');
  assert.match(text, /\[2\] \{"first":"ana"\}@7/);
  assert.match(text, /\[3\] constructor \(\["x"\]\)/, 'a harness named like an Object property is not looked up on the prototype');
  assert.match(text, /approval: allow — \{"why":"x"\}/);
  assert.match(text, /approval: deny — 5/);
  assert.match(text, /Switched this conversation from claude to codex ──── \[9\] fresh start with a brief\n/);
  assert.match(text, /reset \[\{"seq":1\}\] undone/);
  assert.match(text, /\[11\] unknown author robot/);
  // A kind this baton knows, with a field it cannot read: damaged, not from a newer baton.
  assert.match(text, /\[12\] unreadable agent_session entry \(kept as written; see the load warning\)/);
  assert.not.match(text, /unknown entry kind "agent_session"/);
  const future = parseLog(`${JSON.stringify(line(1, 'hologram', { frames: 3 }))}\n`).entries;
  assert.match(renderEntries(future), /\[1\] unknown entry kind "hologram" \(kept as written; a newer baton knows it\)/);
  assert.match(md, /_turn end · cost unreadable_/);
  assert.not.match(text + md, /undefined|\[object Object\]|NaN/);
});

t('control sequences in authors, agent names, titles and kinds are never rendered', () => {
  const mk = (e: Record<string, unknown>) => e as unknown as Entry;
  const entries: Entry[] = [
    mk(
      line(1, 'handoff', {
        from: null,
        to: { harness: `claude${DIRTY}`, model: `opus${DIRTY}` },
        newSegment: 's1',
        switchId: 'a',
        mode: 'fresh',
        briefChars: 0,
        uptoSeq: 0,
      }),
    ),
    mk(line(2, 'user_message', { text: 'hi' }, { type: 'user', name: `ana${DIRTY}`, device: `box${DIRTY}` })),
    mk(line(3, 'agent_text', { text: `ok${DIRTY}` }, { type: 'agent', harness: `claude${DIRTY}`, model: `opus${DIRTY}` })),
    mk(
      line(4, 'handoff', {
        from: { harness: `claude${DIRTY}`, model: 'opus' },
        to: { harness: 'codex', model: 'gpt-5' },
        newSegment: 's2',
        switchId: 'b',
        mode: 'fresh',
        briefChars: 3,
        uptoSeq: 3,
      }),
    ),
    mk(line(5, 'agent_text', { text: 'fine' }, { type: 'agent', harness: 'codex', model: 'gpt-5' })),
    mk({ kind: 'unknown', originalKind: `image${DIRTY}`, raw: {}, seq: 6, at: 'x', author: sys, segment: 's2' }),
  ];
  const titles = { codex: `Codex${DIRTY}` };
  const out = renderEntries(entries, { titles }) + renderMarkdown(entries, `title${DIRTY}`, { titles }) + authorLabel(entries[1]!.author);
  assert.not.match(out, CONTROL);
  assert.match(out, /\[2\] ana@box\n/, 'whole sequences go, the text stays');
  assert.match(renderEntry(entries[3]!, { titles }).join('\n'), /from claude to Codex ────/);
});

t('a brief over bad stored values is made, not thrown on, and carries no control character', () => {
  const entries = badLog();
  for (const maxChars of [1024, 120_000]) {
    let text = '';
    try {
      text = buildBrief(entries, { conversationId: 'abcd1234', target: { harness: 'codex', model: 'gpt-5' }, mode: 'fresh', maxChars }).text ?? '';
    } catch (e) {
      assert.unreachable(`the brief threw: ${(e as Error).stack}`);
    }
    assert.ok(text.includes('[baton handoff brief]'));
    assert.not.match(text, CONTROL);
  }
});

t.run();
