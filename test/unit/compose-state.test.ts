// What the compose bar says about an armed switch (src/tui/compose-state.ts): another agent
// carries the conversation as text; another model of the agent that runs goes on in its own
// session, and an agent that ran here before resumes its own; which is what the user should
// read before sending.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { TabSnapshot } from '../../src/conversation/index.js';
import { composeLines } from '../../src/tui/compose-lines.js';
import { composeState, inOf } from '../../src/tui/compose-state.js';

const s = suite('compose state');
const user = { type: 'user' as const, name: 'ana', device: 'laptop' };

function snap(armed: TabSnapshot['armed'], more: Partial<TabSnapshot> = {}): TabSnapshot {
  return {
    conversationId: 'c1',
    agent: 'codex',
    agentTitle: 'Codex CLI',
    model: 'fake-model',
    account: undefined,
    status: 'idle',
    armed,
    queue: [],
    noContext: false,
    running: true,
    notice: undefined,
    noticeSeq: 0,
    unresolved: false,
    briefPending: false,
    armedResumes: false,
    ...more,
  };
}

s('another agent: the conversation goes as text (the default note)', () => {
  const st = composeState({ user, snap: snap({ agent: 'claude', title: 'Claude Code' }), shell: false });
  assert.is(st.armedTitle, 'Claude Code');
  assert.is(st.armedText, undefined);
});

s('another model of the agent that runs: the same session goes on', () => {
  const st = composeState({ user, snap: snap({ agent: 'codex', title: 'Codex CLI', model: 'gpt-6-luna', from: 'codex' }), shell: false });
  assert.match(st.armedText?.head ?? '', /^Continue with Codex CLI/);
  assert.match(st.armedText?.note ?? '', /same session goes on, on another model/);
});

s('a switch from another agent, sent and under way (the tab runs the new agent, still armed): not the same session', () => {
  // Seen by hand: Qwen Code -> Codex CLI read "The same session goes on, on another model" while Codex started.
  for (const armed of [
    { agent: 'codex', title: 'Codex CLI', from: 'qwen' },
    { agent: 'codex', title: 'Codex CLI', model: 'gpt-6-luna', from: 'qwen' },
  ] as TabSnapshot['armed'][]) {
    assert.is(composeState({ user, snap: snap(armed), shell: false }).armedText, undefined, JSON.stringify(armed));
  }
});

s('the same agent under another account, on a local server, or with a summary first: not the same session', () => {
  for (const armed of [
    { agent: 'codex', title: 'Codex CLI', account: 'work' },
    { agent: 'codex', title: 'Codex CLI', local: { endpoint: 'http://127.0.0.1:11434', api: 'openai-chat' } },
    { agent: 'codex', title: 'Codex CLI', model: 'gpt-6-luna', summary: true },
  ] as TabSnapshot['armed'][]) {
    assert.is(composeState({ user, snap: snap(armed), shell: false }).armedText, undefined, JSON.stringify(armed));
  }
  // The account it already runs under is the same session.
  const same = composeState({
    user,
    snap: snap({ agent: 'codex', title: 'Codex CLI', account: 'work', model: 'm', from: 'codex' }, { account: 'work' }),
    shell: false,
  });
  assert.match(same.armedText?.note ?? '', /same session/);
});

s('an agent that ran here before: its own session is resumed with only what it missed, not the conversation as text', () => {
  const st = composeState({ user, snap: snap({ agent: 'claude', title: 'Claude Code' }, { armedResumes: true }), shell: false });
  assert.is(st.armedText?.head, 'Continue with Claude Code');
  assert.match(st.armedText?.note ?? '', /^Its own session is resumed; your message carries only what it missed\./);
  assert.not.match(st.armedText?.note ?? '', /continues as text|not carried/);
});

s('after a reset the armed agent is a restart, whatever its model', () => {
  const st = composeState({
    user,
    snap: snap({ agent: 'codex', title: 'Codex CLI', model: 'gpt-6-luna' }),
    stopped: { seq: 4, undone: false } as never,
    shell: false,
  });
  assert.match(st.armedText?.head ?? '', /afresh/);
});

// A message (or a paste) its program reads slowly: said in the compose rows, focused or not,
// with how much is in, and gone once it is (the snapshot says so from then on).
s('a message still going in is said with how much is in; a paste into the pane too; nothing once it is in', () => {
  const rows = (st: ReturnType<typeof composeState>, focused: boolean) =>
    composeLines(st, { draft: '', cursor: 0, focused, selected: undefined }, 120, 30, 'C-b').join('\n');
  const sending = composeState({ user, snap: snap(undefined, { sending: { written: 120 * 1024, total: 280 * 1024 } }), shell: false });
  for (const focused of [true, false])
    assert.match(rows(sending, focused), 'sending your message to Codex CLI: 120 / 280 KB in · keys typed into its pane go in after it');
  // Baton's message is what is said while it goes in, whatever else the pane is given.
  const both = composeState({ user, snap: snap(undefined, { sending: { written: 0, total: 2048 } }), shell: false, pasting: { written: 1, total: 2 } });
  assert.match(both.sending ?? '', /^sending your message to Codex CLI: 0 \/ 2 KB in/);
  const pasting = composeState({ user, shell: true, pasting: { written: 3 * 1024 * 1024, total: 5.5 * 1024 * 1024 } });
  assert.match(rows(pasting, false), 'pasting into the pane: 3.0 / 5.5 MB in · keys typed meanwhile go in after it');
  const done = composeState({ user, snap: snap(undefined), shell: false });
  assert.is(done.sending, undefined);
  assert.not.match(rows(done, true), /sending|pasting/);
  // A part of a KB is not rounded up to a whole one written, nor the whole down.
  assert.is(inOf({ written: 1023, total: 1025 }), '0 / 2 KB in');
});

s.run();
