// real CLIs: claude, codex, gemini, qwen, opencode
// `baton chat --mode` for a headless turn of each of the five real CLIs against the fake LLM
// (issue 13 item 3): in plan mode a scripted file write changes nothing (claude
// --permission-mode plan, codex's read-only sandbox, gemini's and qwen's --approval-mode
// plan, opencode emulated: the plan instruction, every edit refused by baton); the next turn
// of the same conversation in accept-edits mode, which continues the CLI's own session, writes
// the file. `npm run test:real -- qwen` runs one CLI's part.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BatonInEnv } from '../helpers/baton-in-env.js';
import { selectedClis, TUI_CLIS } from '../helpers/real-tui.js';

const clis = selectedClis(TUI_CLIS);
/**
 * What shows, in the model requests of a plan-mode turn, that the CLI was in plan mode: claude's
 * and qwen's own system reminder, gemini's plan-mode tool, baton's plan instruction where plan
 * mode is baton's (codex exec, opencode). None of them is in a default turn's requests.
 */
const PLAN_WITNESS: Record<(typeof TUI_CLIS)[number], string> = {
  claude: 'Plan mode is active',
  codex: '[baton: plan mode]',
  gemini: 'exit_plan_mode',
  qwen: 'Plan mode is active',
  opencode: '[baton: plan mode]',
};
const s = suite('baton chat --mode with each real CLI');
const home = new BatonInEnv(s, clis, '240');

for (const cli of clis) {
  s(`${cli}: plan mode writes nothing; accept-edits in the same conversation and session writes`, async () => {
    const file = `made-in-${cli}.txt`;
    const path = join(home.menv.cwd, file);
    const plan = await home.chat(['--new', '--agent', cli, '--mode', 'plan', `[[FAKE_WRITE: ${file} :: planned ${cli}]] write it MARK-PLAN-${cli}`]);
    assert.is(plan.agent, cli);
    assert.not.ok(existsSync(path), `${cli} in plan mode wrote ${file}`);
    assert.ok(home.fake.requestsContaining(`MARK-PLAN-${cli}`).length > 0, 'the model was asked');
    const witness = PLAN_WITNESS[cli];
    assert.ok(home.fake.requestsContaining(witness).length > 0, `${cli}'s requests say it is in plan mode (${witness})`);

    const edits = await home.chat([
      '--conversation',
      plan.conversation,
      '--mode',
      'accept-edits',
      `[[FAKE_WRITE: ${file} :: written ${cli}]] now write it MARK-EDIT-${cli}`,
    ]);
    assert.is(edits.handoff, null, 'the same agent, its own session continued');
    assert.ok(existsSync(path), `${cli} in accept-edits mode did not write ${file}: ${JSON.stringify(edits.entries.filter((e) => e.kind !== 'agent_text'))}`);
    assert.match(readFileSync(path, 'utf8'), new RegExp(`written ${cli}`));
  });
}

s.run();
