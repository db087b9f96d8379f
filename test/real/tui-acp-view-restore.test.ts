// real CLIs: claude-code-acp, gemini
// baton quit and started again with a view tab of a real ACP agent open (issue 13, Show:
// "reopen the tab and the session continues without the history shown twice"), the way a
// user does it: the built baton in a real PTY, the agent from .cache/clis against the fake
// LLM; a message in the "<agent> (baton view)" tab, C-b q, baton started again, its offer to
// open the tab again taken. The tab draws its history from baton's log once, the agent opens
// the same session again (session/load: `via` in the view's log), the next message is
// answered and the model's request for it carries the earlier turn. claude-code-acp replays
// a load's history before it answers; Gemini CLI 0.61 goes on replaying after it, and cannot
// load a session in the minute it began (see acp-view-gemini.test.ts): the restart waits for
// the next minute. The view's steps without the TUI: test/helpers/acp-view-real.ts.
// `npm run test:real -- gemini` runs one agent's part (BATON_TEST_CLIS).
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readViewLog } from '../../src/plugins/acp-view-log.js';
import { bodyContains, type FakeLlm } from '../fake-llm/server.js';
import { endServers, pickEntry } from '../helpers/baton-tui.js';
import type { MultiCliEnv } from '../helpers/multi-cli-env.js';
import { endRealTui, quitBaton, selectedClis, serverRun, startRealBaton, startRealEnv } from '../helpers/real-tui.js';
import type { TestTerminal } from '../helpers/term.js';
import { until } from '../helpers/wait.js';

type Agent = 'claude-code-acp' | 'gemini';
const TITLE: Record<Agent, string> = { 'claude-code-acp': 'Claude Code (ACP adapter)', gemini: 'Gemini CLI' };
const TURN_MS = 180_000;
/** The updates that carry conversation: none may come between the reopen and the next message (a replay). */
const CONVERSATION = new Set(['user_message_chunk', 'agent_message_chunk', 'agent_thought_chunk', 'tool_call', 'tool_call_update', 'plan']);

for (const cli of selectedClis<Agent>(['claude-code-acp', 'gemini'])) {
  const s = suite(`tui acp view restored: ${cli}`);
  let fake: FakeLlm;
  let menv: MultiCliEnv;
  let t: TestTerminal | undefined;
  let again: TestTerminal | undefined;

  const say = async (term: TestTerminal, text: string) => {
    term.type(text);
    await term.waitFor(text.slice(-20), 10_000, 'the message in the input line');
    term.press('Enter');
  };
  /** The view's log (the one view this baton opened). */
  const viewLog = () => {
    const dir = join(menv.dir, 'baton-home', 'acp-views');
    const file = readdirSync(dir).find((f) => f.endsWith('.jsonl'))!;
    return readViewLog(join(dir, file));
  };
  /** The message before the restart and its answer, each drawn once. */
  const once = (screen: string) => {
    assert.is(screen.match(/^ {2}before the restart\s*$/gm)?.length, 1, `the message once:\n${screen}`);
    assert.is(screen.match(/You said: before the restart/g)?.length, 1, `its answer once:\n${screen}`);
  };

  s.before(async () => {
    ({ fake, menv } = await startRealEnv([cli]));
  });
  s.after(async () => {
    await endRealTui([t, again], menv, fake);
  });

  s(`a message in the ${TITLE[cli]} view tab is answered`, async () => {
    t = startRealBaton(menv, { cols: 110, rows: 40 });
    await pickEntry(t, `${TITLE[cli]} (baton view)`);
    await t.waitFor('Enter sends', TURN_MS, 'the view ready');
    await say(t, 'before the restart');
    await t.waitFor('You said: before the restart', TURN_MS);
    await t.waitFor('Enter sends', TURN_MS);
  });

  s('baton quit and started again: the tab comes back, its history drawn once, and the agent continues its session', async () => {
    const began = viewLog().find((l) => l.acp)!;
    if (cli === 'gemini') {
      const minute = (ms: number) => Math.floor(ms / 60_000);
      await until(() => minute(Date.now()) > minute(Date.parse(began.at)), "the minute after the session's start", 70_000);
    }
    await quitBaton(t!);
    await endServers(serverRun(menv.dir));
    again = startRealBaton(menv, { cols: 110, rows: 40 });
    await again.waitFor('Open it again?', TURN_MS, 'the offer to restore the tab');
    again.type('y');
    await again.waitFor('Enter sends', TURN_MS, 'the view reopened');
    await until(() => viewLog().filter((l) => l.acp).length === 2, "the reopened session in the view's log");
    const at = viewLog().findIndex((l) => l.acp === began.acp && l.via === 'load');
    const reopened = viewLog().filter((l) => l.acp)[1]!;
    assert.equal([reopened.acp, reopened.via], [began.acp, 'load']);
    once(again.screenText());
    await say(again, 'after the restart');
    await again.waitFor('You said: after the restart', TURN_MS);
    await again.waitFor('Enter sends', TURN_MS);
    once(again.screenText());
    const recs = viewLog()
      .slice(at)
      .flatMap((l) => (l.rec ? [l.rec as { t: string; update?: { sessionUpdate: string } }] : []));
    const replayed = recs
      .slice(
        0,
        recs.findIndex((r) => r.t === 'user'),
      )
      .filter((r) => r.t === 'update' && CONVERSATION.has(r.update!.sessionUpdate));
    assert.equal(replayed, [], "nothing of the agent's replay drawn or logged");
    assert.ok(
      fake.requestsContaining('after the restart').some((r) => bodyContains(r, 'before the restart')),
      `${cli} sent the model the earlier turn with the new message`,
    );
  });

  s.run();
}
