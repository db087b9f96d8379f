// real CLIs: claude, codex
// A draft in the CLI's own input box and a switch (prefix a, then a send), in the real `baton`
// TUI with real CLIs against the fake LLM, through a real PTY. After a first turn the user
// types into the CLI's box and leaves it unsent, arms a switch and sends from the compose bar:
// baton must not stop the CLI (the draft would be lost with it) nor type `/model …` after the
// draft (the CLI would take the two as one line). The send is refused in one line saying why,
// the message is back in the compose bar and the switch stays armed; the draft is still on
// screen and the CLI still runs. Once the user clears the box, the same send goes through.
// What the model was asked and what the transcript records agree: the first turn and the
// switch's message, each once, and never the draft.
// On main both fail: the switch stops the CLI at once (the draft gone), and Claude Code's
// `/model haiku` is typed into the box after the draft.
// A copy of a recorded message in Claude Code's box is no draft: the one it puts back after Esc
// interrupts a turn (7b7e720 held the switch on it, and real tui-agents failed), or the last
// one recalled with Up. The switch to haiku goes at once, by a relaunch on the same session:
// never a `/model haiku` typed after that text, which Claude sends as one message with it
// (the Up case fails on main so).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { join } from 'node:path';
import { bodyContains, type FakeLlm } from '../fake-llm/server.js';
import { pickEntry } from '../helpers/baton-tui.js';
import type { MultiCliEnv } from '../helpers/multi-cli-env.js';
import {
  composeSend,
  composeTurn,
  endRealTui,
  pressEscape,
  recordedUserMessages,
  selectedClis,
  serverLogTail,
  serverSaid,
  startRealBaton,
  startRealEnv,
  TUI_READY,
  TUI_TITLE,
} from '../helpers/real-tui.js';
import type { TestTerminal } from '../helpers/term.js';
import { until } from '../helpers/wait.js';

const clis = selectedClis(['claude', 'codex'] as const);
type Cli = (typeof clis)[number];
const PARTNER: Record<Cli, Cli> = { claude: 'codex', codex: 'claude' };
const HOLD = /input box has text of yours: send it \(Enter in its pane\) or clear it there first\. Nothing was sent; the switch stays armed/;

const s = suite('a draft in the CLI input box holds a switch');
let fake: FakeLlm | undefined;
let menv: MultiCliEnv | undefined;
let t: TestTerminal | undefined;

s.after.each(async () => {
  await endRealTui([t], menv, fake);
  t = menv = fake = undefined;
});

const idle = (cli: Cli) => new RegExp(`1:${TUI_TITLE[cli]} idle(?= |$)`, 'm');
const batonHome = () => join(menv!.dir, 'baton-home');

/** baton running `cli` after one whole turn (FIRST), the user's DRAFT then typed into the CLI's own box and left there. */
async function draftAfterATurn(cli: Cli, partner: Cli | undefined, first: string, draft: string): Promise<void> {
  ({ fake, menv } = await startRealEnv(partner ? [cli, partner] : [cli]));
  t = startRealBaton(menv, { cols: 160, rows: 40 });
  await pickEntry(t, TUI_TITLE[cli], 90_000);
  await t.waitFor((scr) => idle(cli).test(scr) && TUI_READY[cli].test(scr), 120_000, `${cli} ready`);
  await composeTurn(t, fake, batonHome(), first);
  await t.waitFor(idle(cli), 90_000, 'idle after the first turn');
  // Out of the compose bar: keys go to the CLI.
  await pressEscape(t);
  t.type(draft);
  await t.waitFor(draft, 15_000, "the draft in the CLI's input box");
}

/** The armed send is refused: said in one line, the message back in the compose bar, the draft alone in the box, the CLI still there. */
async function refusedWithDraftKept(cli: Cli, draft: string, message: string): Promise<void> {
  t!.type(message);
  await t!.waitFor(`› ${message}`, 10_000, 'the message in the compose bar');
  t!.press('Enter');
  await t!.waitFor(HOLD, 15_000, 'the one line saying why nothing happens');
  await t!.waitFor(`› ${message}`, 10_000, 'the message kept in the compose bar');
  // A while on, nothing changed: the CLI runs with the draft alone in its box.
  await new Promise((r) => setTimeout(r, 3000));
  const scr = t!.screenText();
  assert.ok(scr.includes(draft), 'the draft still on screen');
  assert.not.ok(new RegExp(`${draft}\\s*/model`).test(scr), 'nothing typed after the draft');
  assert.ok(idle(cli).test(scr), `the tab still runs ${TUI_TITLE[cli]}, idle`);
  assert.is(fake!.requestsContaining(message).length, 0, 'nothing of the message reached a model');
}

/** The user clears the box in the pane (Backspace over the draft), then sends the kept message again. */
async function clearAndSendAgain(draft: string, message: string): Promise<void> {
  await pressEscape(t!);
  for (let i = 0; i < draft.length; i++) t!.press('Backspace');
  await t!.waitForGone(draft, 15_000);
  t!.press('C-b', 'm');
  await t!.waitFor(`› ${message}`, 10_000, 'the kept message');
  // (The kept message shows whether the compose bar has the focus or not: an Enter read in the
  // same chunk as C-b m went to the pane, once in three runs here.)
  await new Promise((r) => setTimeout(r, 500));
  t!.press('Enter');
  await until(() => fake!.requestsContaining(message).length > 0, `the model asked about ${message}`, 180_000).catch((err: Error) => {
    throw new Error(`${err.message}; the screen:\n${t!.screenText()}\n${serverLogTail(batonHome())}`);
  });
}

/** The transcript holds the two messages, each once, in order, and no draft. */
async function recordedAsAsked(mark: string, first: string, message: string): Promise<void> {
  const said = () => recordedUserMessages(batonHome()).filter((u) => u.includes(mark));
  await until(() => said().includes(message), `${message} recorded`, 60_000).catch(() => undefined);
  assert.equal(said(), [first, message], `recorded: ${JSON.stringify(said())}\n${serverLogTail(batonHome())}`);
}

for (const cli of clis) {
  const partner = PARTNER[cli];
  s(`${cli}: a switch to ${partner} waits while ${TUI_TITLE[cli]}'s input box holds a draft; the draft survives; once cleared, the switch goes`, async () => {
    const mark = `${cli.toUpperCase()}SW`;
    const FIRST = `first turn ${mark}-ONE`;
    const DRAFT = `ow ${mark}-DRAFT left here`;
    const MESSAGE = `over to ${partner} ${mark}-TWO`;
    try {
      await draftAfterATurn(cli, partner, FIRST, DRAFT);
      t!.press('C-b', 'a');
      await t!.waitFor(new RegExp(`┌─ Continue with [^]*│${TUI_TITLE[partner]}  \\d`), 60_000, `the switch picker listing ${TUI_TITLE[partner]}`);
      await pickEntry(t!, TUI_TITLE[partner]);
      await t!.waitFor(`Continue with ${TUI_TITLE[partner]}`, 10_000, 'the switch armed');

      await refusedWithDraftKept(cli, DRAFT, MESSAGE);
      assert.ok(t!.screenText().includes(`Continue with ${TUI_TITLE[partner]}`), 'the switch still armed');

      await clearAndSendAgain(DRAFT, MESSAGE);
      await t!.waitFor(`1:${TUI_TITLE[partner]}`, 60_000, `the tab now runs ${TUI_TITLE[partner]}`);
      await t!.waitFor(`Continued with ${TUI_TITLE[partner]}`, 60_000, 'the outcome');
      const asked = fake!.requestsContaining(MESSAGE);
      assert.ok(
        asked.some((r) => bodyContains(r, '[baton handoff brief]') && bodyContains(r, FIRST)),
        `${partner} got the brief with the first turn`,
      );
      assert.not.ok(
        asked.some((r) => bodyContains(r, `${mark}-DRAFT`)),
        'the draft was not carried',
      );
      await recordedAsAsked(mark, FIRST, MESSAGE);
    } catch (err) {
      if (t) console.error(t.screenText());
      throw err;
    }
  });
}

if (clis.includes('claude')) {
  s("claude: another model (haiku), changed in Claude Code's running session, waits while its input box holds a draft; then changes in place", async () => {
    const mark = 'CLAUDEMD';
    const FIRST = `first turn ${mark}-ONE`;
    const DRAFT = `ow ${mark}-DRAFT left here`;
    const MESSAGE = `on haiku ${mark}-TWO`;
    try {
      await draftAfterATurn('claude', undefined, FIRST, DRAFT);
      t!.press('C-b', 'a');
      await pickEntry(t!, `${TUI_TITLE.claude} · other model…`, 60_000);
      await t!.waitFor(new RegExp(`┌─ Model of ${TUI_TITLE.claude} `), 30_000, 'the model picker');
      await pickEntry(t!, 'haiku', 90_000);
      await t!.waitFor(`Continue with ${TUI_TITLE.claude} · haiku`, 10_000, 'the model change armed');

      await refusedWithDraftKept('claude', DRAFT, MESSAGE);

      await clearAndSendAgain(DRAFT, MESSAGE);
      await until(() => fake!.requestsContaining(MESSAGE).some((r) => /haiku/.test(r.model)), 'asked on haiku', 60_000).catch(() => undefined);
      const asked = fake!.requestsContaining(MESSAGE);
      assert.ok(
        asked.some((r) => /haiku/.test(r.model) && bodyContains(r, FIRST)),
        `on haiku, in the same session: ${asked.map((r) => r.model)}`,
      );
      assert.not.ok(
        asked.some((r) => bodyContains(r, `${mark}-DRAFT`)),
        'the draft did not join the message',
      );
      await recordedAsAsked(mark, FIRST, MESSAGE);
    } catch (err) {
      if (t) console.error(t.screenText());
      throw err;
    }
  });
}

/**
 * With a copy of a recorded message in Claude Code's box (RECORDED, after the turns in `mark`),
 * another model (haiku) is armed and MESSAGE sent: it must go at once, asked on haiku in the
 * same session, with no `/model` typed after that copy, and the transcript as `said`.
 */
async function haikuDespiteCopy(mark: string, copy: string, message: string, said: string[]): Promise<void> {
  t!.press('C-b', 'a');
  await pickEntry(t!, `${TUI_TITLE.claude} · other model…`, 60_000);
  await t!.waitFor(new RegExp(`┌─ Model of ${TUI_TITLE.claude} `), 30_000, 'the model picker');
  await pickEntry(t!, 'haiku', 90_000);
  await t!.waitFor(`Continue with ${TUI_TITLE.claude} · haiku`, 10_000, 'the model change armed');
  t!.type(message);
  await t!.waitFor(`› ${message}`, 10_000, 'the message in the compose bar');
  t!.press('Enter');
  await until(() => fake!.requestsContaining(message).some((r) => /haiku/.test(r.model)), 'asked on haiku', 180_000).catch((err: Error) => {
    throw new Error(`${err.message}; the screen:\n${t!.screenText()}\n${serverLogTail(batonHome())}`);
  });
  assert.not.ok(/input box has text of yours/.test(serverSaid(batonHome()).join('\n')), 'the switch was not held');
  const asked = fake!.requestsContaining(message);
  assert.ok(
    asked.some((r) => /haiku/.test(r.model) && bodyContains(r, `${mark}-ONE`)),
    `on haiku, in the same session: ${asked.map((r) => r.model)}`,
  );
  assert.not.ok(
    fake!.requests().some((r) => bodyContains(r, `${copy}/model`)),
    'no `/model` joined to the copy reached the model',
  );
  const recorded = () => recordedUserMessages(batonHome()).filter((u) => u.includes(mark));
  await until(() => recorded().includes(message), `${message} recorded`, 60_000).catch(() => undefined);
  assert.equal(recorded(), said, `recorded: ${JSON.stringify(recorded())}\n${serverLogTail(batonHome())}`);
}

/** baton running claude after one whole turn (FIRST), the compose bar left: keys go to the CLI. */
async function claudeAfterATurn(first: string): Promise<void> {
  ({ fake, menv } = await startRealEnv(['claude']));
  t = startRealBaton(menv, { cols: 160, rows: 40 });
  await pickEntry(t, TUI_TITLE.claude, 90_000);
  await t.waitFor((scr) => idle('claude').test(scr) && TUI_READY.claude.test(scr), 120_000, 'claude ready');
  await composeTurn(t, fake, batonHome(), first);
  await t.waitFor(idle('claude'), 90_000, 'idle after the first turn');
}

if (clis.includes('claude')) {
  s('claude: the message Claude Code puts back in its box after Esc interrupts its turn holds nothing: another model (haiku) goes at once', async () => {
    const mark = 'CLAUDEPB';
    const FIRST = `first turn ${mark}-ONE`;
    // The fake LLM never answers this one: the turn runs until Esc.
    const HUNG = `[[FAKE_HANG]] long think ${mark}-HUNG`;
    const MESSAGE = `on haiku ${mark}-TWO`;
    try {
      await claudeAfterATurn(FIRST);
      await composeSend(t!, fake!, HUNG);
      await until(() => recordedUserMessages(batonHome()).includes(HUNG), 'the hung message recorded', 60_000);
      // Out of the compose bar, then Esc in the pane: the turn is interrupted.
      await pressEscape(t!);
      await pressEscape(t!);
      await t!.waitFor(idle('claude'), 60_000, 'claude idle after the interrupt');
      // What this case is about: Claude put the interrupted message back in its input box.
      await t!.waitFor(new RegExp(`❯\\s\\[\\[FAKE_HANG\\]\\] long think ${mark}-HUNG`), 15_000, 'the message back in the box');
      await haikuDespiteCopy(mark, `${mark}-HUNG`, MESSAGE, [FIRST, HUNG, MESSAGE]);
    } catch (err) {
      if (t) console.error(t.screenText());
      throw err;
    }
  });

  s(
    "claude: the last message recalled into Claude Code's box (Up) holds nothing, and no `/model` is typed after it: haiku by a relaunch on the same session",
    async () => {
      const mark = 'CLAUDEUP';
      const FIRST = `first turn ${mark}-ONE`;
      const MESSAGE = `on haiku ${mark}-TWO`;
      try {
        await claudeAfterATurn(FIRST);
        await pressEscape(t!);
        t!.press('Up');
        await t!.waitFor(new RegExp(`❯\\s${FIRST}\\s*\\n\\s*─{8,}`), 15_000, 'the first message recalled into the box');
        await haikuDespiteCopy(mark, FIRST, MESSAGE, [FIRST, MESSAGE]);
      } catch (err) {
        if (t) console.error(t.screenText());
        throw err;
      }
    },
  );
}

s.run();
