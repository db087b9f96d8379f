// real CLIs: gemini
// A queued message is sent once (issue 9, item 3), in the real `baton` TUI with the real
// Gemini CLI against the fake LLM, through a real PTY. Gemini works on a shell call that
// needs approval; two messages are queued from the compose bar and one deleted; the user
// reads the approval request a while, then approves in the pane. What Gemini receives, what
// the transcript records and what the compose bar shows agree: nothing baton typed answered
// the approval, the model hears the queued message in exactly one turn and not doubled
// ("q1q1" was seen), the transcript holds it once, the deleted one reaches nobody, and no
// notice says the message is back in a compose bar that is empty.
// Before the fix, baton read Gemini as idle in the frame between its Enter and Gemini's
// spinner, typed q1 into Gemini while its turn was open, and its retry Enter for q1 answered
// the "Allow execution" dialog.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { join } from 'node:path';
import type { FakeLlm } from '../fake-llm/server.js';
import type { MultiCliEnv } from '../helpers/multi-cli-env.js';
import type { TestTerminal } from '../helpers/term.js';
import { pickEntry } from '../helpers/baton-tui.js';
import { endRealTui, pressEscape, recordedUserMessages, startRealBaton, startRealEnv } from '../helpers/real-tui.js';

let fake: FakeLlm;
let menv: MultiCliEnv;
let t: TestTerminal;

const SHELL = '[[FAKE_SHELL: touch made-by-shell.txt]] run it MARK-SHELL';
const Q1 = 'first queued MARK-Q1';
const Q2 = 'second queued MARK-Q2';

/** What the fake model answered to turns whose last user text was `text` (its echo ends with it). */
const turnsOn = (text: string) => fake.requests().filter((r) => r.reply?.kind === 'text' && r.reply.text.endsWith(`You said: ${text}`));

const s = suite('tui queue with gemini');
s.before(async () => {
  ({ fake, menv } = await startRealEnv(['gemini']));
  t = startRealBaton(menv, { cols: 100, rows: 30 });
});
s.after(() => endRealTui([t], menv, fake));

s(
  'messages queued while gemini waits for a shell approval: the one kept reaches gemini once, recorded once; the deleted one nowhere; compose bar and notice agree',
  async () => {
    await t.waitFor(/│Gemini CLI  \d[^]*│Plain shell/, 90_000, 'the agent picker listing Gemini CLI');
    await pickEntry(t, 'Gemini CLI');
    await t.waitFor(/Type your message/, 90_000, 'gemini ready');

    t.press('C-b', 'm');
    t.type(SHELL);
    t.press('Enter');
    const sentAt = Date.now();
    await t.waitFor(/1:Gemini CLI[^\n]*working/, 30_000, 'the tab working on it');

    // Still in the compose bar: two messages queue behind the running turn; the last is deleted.
    t.type(Q1);
    t.press('Enter');
    await t.waitFor(/queued \(1\): 1\. first/, 10_000, 'q1 queued');
    t.type(Q2);
    t.press('Enter');
    await t.waitFor(/queued \(2\): (…|1\. first)[^\n]*2\. second/, 10_000, 'q2 queued behind it');
    t.press('M-x');
    await t.waitFor(/queued \(1\): 1\. first/, 10_000, 'q2 deleted, q1 left');

    await t.waitFor(/Allow execution of/, 90_000, 'gemini asks to run the shell command');
    await t.waitFor(/1:Gemini CLI[^\n]*needs (approval|you)/, 30_000, 'the tab says it needs the user');
    // The user takes a while to read the request: longer than baton waits for a delivery to
    // show in the CLI's log, retry included (2 × 8 s), so anything baton typed meanwhile has
    // been given up on before the approval.
    await new Promise((r) => setTimeout(r, Math.max(0, sentAt + 25_000 - Date.now())));
    assert.ok(/Allow execution of/.test(t.screenText()), 'nothing typed so far answered the approval');
    assert.is(turnsOn(Q1).length, 0, 'the queued message reached no model turn before the approval');

    // Approve in the pane ("Allow once" is selected).
    await pressEscape(t);
    t.press('Enter');
    await fake.waitForRequest((r) => r.reply?.kind === 'text' && r.reply.text.includes('MARK-Q1'), 90_000, 'the model answering the queued message');
    await t.waitFor(/You said: first queued MARK-Q1/, 60_000, "gemini's reply in the pane");
    await t.waitFor((scr) => /1:Gemini CLI[^\n]*idle/.test(scr) && !/queued \(\d+\)/.test(scr), 90_000, "gemini idle again, baton's queue empty");

    // The model heard q1 in one turn, not doubled, and q2 never.
    const q1Turns = turnsOn(Q1);
    assert.is(
      q1Turns.length,
      1,
      `one turn on q1; replies mentioning it: ${JSON.stringify(
        fake
          .requests()
          .filter((r) => r.reply?.kind === 'text' && r.reply.text.includes('MARK-Q1'))
          .map((r) => r.reply),
      )}`,
    );
    assert.is(fake.requestsContaining(`${Q1}${Q1}`).length, 0, 'never doubled');
    assert.is(fake.requestsContaining('MARK-Q2').length, 0, 'the deleted message reached nobody');
    assert.ok(turnsOn(SHELL.replace('[[FAKE_', '[ [FAKE_')).length >= 1, 'the shell turn finished');

    // The transcript says the same.
    const users = recordedUserMessages(join(menv.dir, 'baton-home'));
    assert.equal(
      users.filter((u) => u.includes('MARK-Q1')),
      [Q1],
      `q1 recorded once, as typed: ${JSON.stringify(users)}`,
    );
    assert.equal(
      users.filter((u) => u.includes('MARK-Q2')),
      [],
      'q2 not recorded',
    );

    // And the compose bar: nothing queued, no copy of q1 in the draft, and no notice claiming otherwise.
    const screen = t.screenText();
    assert.not.match(screen, /queued \(\d+\)/, 'the queue is empty');
    assert.not.match(screen, /› first queued MARK-Q1/, 'no copy of q1 in the draft');
    assert.not.match(screen, /back in the compose bar/, 'no notice says it is back in the compose bar');
  },
);

s.run();
