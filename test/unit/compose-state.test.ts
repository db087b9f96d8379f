// What the compose bar says about an armed switch (src/tui/compose-state.ts): another agent
// carries the conversation as text; another model of the agent that runs goes on in its own
// session, and an agent that ran here before resumes its own; which is what the user should
// read before sending.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { TabSnapshot } from '../../src/conversation/index.js';
import { composeState } from '../../src/tui/compose-state.js';

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

s.run();
