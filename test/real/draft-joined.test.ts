// real CLIs: claude, codex, gemini, qwen, opencode
// How each real CLI's own log shows a message pasted after a draft the user left in its input
// box, and what baton records for it (src/conversation/received-text.ts): the CLI's TUI started
// from its driver's launch() in a real PTY against the fake LLM, the driver's ingest following
// its log. A draft is typed into the box; the driver's inputDraft reads it on the real screen;
// then baton's Delivery pastes a message after it (as a tab did before it held such messages,
// and as still happens when the draft comes between baton's look and its paste). The CLI takes
// both as one message, its log shows them joined, the delivery claims it, and the text to record
// is what the model was asked: the draft and the message as one, not the message alone (which
// is what a tab recorded on main: "ow QMARK-1 [[…]]queued QMARK-2" reached Claude, "queued
// QMARK-2" was recorded).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { DriverDefinition } from '../../src/plugins/api.js';
import type { Pending } from '../../src/conversation/delivery.js';
import { receivedText } from '../../src/conversation/received-text.js';
import { startFakeLlm, type FakeLlm } from '../fake-llm/server.js';
import { asBaton } from '../helpers/fixture-capture.js';
import { selectedClis, TUI_CLIS, type TuiCli } from '../helpers/real-tui.js';
import { withDelivery } from '../helpers/run-agent-terminal.js';
import { until } from '../helpers/wait.js';
import claude from '../../plugins/claude/index.js';
import codex from '../../plugins/codex/index.js';
import gemini from '../../plugins/gemini/index.js';
import opencode from '../../plugins/opencode/index.js';
import qwen from '../../plugins/qwen/index.js';

const DEFINITIONS: Record<TuiCli, DriverDefinition> = { claude, codex, gemini, qwen, opencode };

let fake: FakeLlm;
const s = suite('a message pasted after a draft in each real CLI: what its log shows and what baton records');
s.before(async () => {
  fake = await startFakeLlm();
});
s.after(async () => {
  await fake?.close();
});

for (const cli of selectedClis(TUI_CLIS)) {
  s(`${cli}: the draft and the message reach the model as one, and that one is what is recorded, once`, async () => {
    const driver = asBaton(DEFINITIONS[cli]);
    const mark = `J${cli.toUpperCase()}`;
    const DRAFT = `ow ${mark}-1 draft`;
    const MESSAGE = `queued ${mark}-2`;
    // The ingest's user messages claim what delivery waits for, and are recorded as a tab session records them.
    const recorded: string[] = [];
    const onClaim = (logged: string, p: Pending | undefined) =>
      recorded.push(p?.typed !== undefined ? receivedText(logged, p.typed, p.text) : `(unclaimed) ${logged}`);
    await withDelivery(
      cli,
      driver,
      fake.url,
      { timeoutMs: 8000, enterWithPaste: driver.capabilities.enterWithPaste === true, onClaim },
      async (run, delivery) => {
        await run.screen('idle', 120_000);
        await new Promise((r) => setTimeout(r, 500));
        run.tui.type(DRAFT);
        await run.tui.waitFor(DRAFT, 15_000, 'the draft in the input box');
        assert.is(driver.inputDraft?.(run.tui.rows()), DRAFT, "the driver reads the draft in the CLI's box");
        assert.ok(await delivery.submit(MESSAGE), 'the log showed the message');
        await until(() => recorded.length > 0, 'the message recorded', 10_000);
        // (A CLI may log the message before it asks the model: opencode does.)
        const asked = () =>
          fake.requestsContaining(`${mark}-2`).filter((r) => r.reply?.kind === 'text' && r.reply.text.endsWith(`You said: ${DRAFT}${MESSAGE}`));
        await until(() => asked().length > 0, 'the model asked', 60_000).catch(() => undefined);
        assert.ok(asked().length >= 1, `the model was asked the two as one: ${JSON.stringify(fake.requestsContaining(`${mark}-2`).map((r) => r.reply))}`);
        assert.equal(recorded, [`${DRAFT}${MESSAGE}`], 'recorded as the CLI received it, once');
      },
    );
  });
}

s.run();
