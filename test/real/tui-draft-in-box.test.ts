// real CLIs: claude, codex, gemini, qwen, opencode
// A draft in the CLI's own input box and a message from the compose bar, in the real `baton`
// TUI with each real CLI against the fake LLM, through a real PTY. The user types into the
// CLI's box and leaves it unsent, then sends from baton's compose bar: baton must not paste
// after the draft (the CLI would take both as one message, and the transcript recorded only
// baton's part: "ow QMARK-1 [[…]]queued QMARK-2" reached Claude, "queued QMARK-2" was recorded).
// The message waits in the compose bar's queue with one line saying why; the user sends the
// draft in the pane; then the message goes alone. What the model was asked, what the transcript
// records and what the screen shows agree: two messages, each once, in that order.
// On main this fails for every CLI: the message is pasted after the draft at once.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { join } from 'node:path';
import type { FakeLlm } from '../fake-llm/server.js';
import type { MultiCliEnv } from '../helpers/multi-cli-env.js';
import type { TestTerminal } from '../helpers/term.js';
import { pickEntry } from '../helpers/baton-tui.js';
import {
  endRealTui,
  pressEscape,
  recordedUserMessages,
  selectedClis,
  serverLogTail,
  startRealBaton,
  startRealEnv,
  submitTyped,
  TUI_CLIS,
  TUI_READY,
  TUI_TITLE,
  type TuiCli,
} from '../helpers/real-tui.js';
import { until } from '../helpers/wait.js';

const s = suite('a draft in the CLI input box and a compose-bar message');

for (const cli of selectedClis(TUI_CLIS)) {
  s(
    `${cli}: the compose-bar message waits while ${TUI_TITLE[cli]}'s input box holds a draft, then goes alone; model, transcript and screen agree`,
    async () => {
      let fake: FakeLlm | undefined;
      let menv: MultiCliEnv | undefined;
      let t: TestTerminal | undefined;
      const mark = cli.toUpperCase();
      const DRAFT = `ow ${mark}DRAFT-1 left here`;
      const SENT = `queued ${mark}SENT-2`;
      try {
        ({ fake, menv } = await startRealEnv([cli as TuiCli]));
        t = startRealBaton(menv, { cols: 160, rows: 40 });
        await pickEntry(t, TUI_TITLE[cli], 90_000);
        await t.waitFor(TUI_READY[cli], 90_000, `${cli} ready`);
        await t.waitFor(new RegExp(`1:${TUI_TITLE[cli]}[^\\n]*idle`), 60_000, 'the tab idle');

        // The user types into the CLI's own box and leaves it there.
        t.type(DRAFT);
        await t.waitFor(DRAFT, 15_000, "the draft in the CLI's input box");

        // Then sends from the compose bar.
        t.press('C-b', 'm');
        t.type(SENT);
        t.press('Enter');
        await t.waitFor(/input box has text of yours: send it \(Enter in its pane\) or clear it there first/, 15_000, 'the one line saying why it waits');
        await t.waitFor(/queued \(1\)/, 10_000, 'the message in the queue');
        // It stays there: the CLI was given nothing, its box holds the draft alone.
        await new Promise((r) => setTimeout(r, 3000));
        assert.is(fake.requestsContaining(`${mark}SENT-2`).length, 0, 'nothing of the message reached the model');
        assert.ok(t.screenText().includes(DRAFT) && !t.screenText().includes(`left here${SENT}`), 'the draft alone in the box');

        // The user sends the draft in the pane; then the message goes by itself.
        await pressEscape(t);
        await submitTyped(t, fake, `${mark}DRAFT-1`);
        // (Not the model's requests: Claude Code may ask the model about what its box holds before
        // Enter, a speculation; the transcript holds what the CLI's log says it took.)
        const recorded = () => recordedUserMessages(join(menv!.dir, 'baton-home')).filter((u) => u.includes(mark));
        await until(() => recorded().length >= 2, 'both messages recorded', 90_000).catch(() => undefined);
        await t.waitFor(`You said: ${SENT}`, 60_000, 'the answer to the queued message in the pane');
        await t.waitFor((scr) => new RegExp(`1:${TUI_TITLE[cli]}[^\\n]*idle`).test(scr) && !/queued \(\d+\)/.test(scr), 90_000, 'idle again, the queue empty');

        // The model was asked each once, never the two joined.
        const joined = fake.requestsContaining(`left here${SENT}`).length + fake.requestsContaining(`left here ${SENT}`).length;
        assert.is(joined, 0, 'never joined');
        assert.ok(
          fake.requests().some((r) => r.reply?.kind === 'text' && r.reply.text.endsWith(`You said: ${DRAFT}`)),
          'the draft answered on its own',
        );

        // The transcript says the same, in that order.
        const users = recorded();
        assert.equal(users, [DRAFT, SENT], `recorded: ${JSON.stringify(users)}\n${serverLogTail(join(menv.dir, 'baton-home'))}`);
      } catch (err) {
        if (t) console.error(t.screenText());
        throw err;
      } finally {
        await endRealTui([t], menv, fake);
      }
    },
  );
}

s.run();
