// real CLIs: claude, codex, gemini, qwen
// A model change mid-conversation in a tab (issue 14 item 2), the built baton in a real PTY
// with the real CLIs against the fake LLM: after a first turn, the switch picker's "<Agent> ·
// other model…" row opens the agent's model picker (its list from the driver), and the model
// chosen is armed as a switch to the same agent; with the next compose-bar message Claude Code,
// Codex, Gemini CLI and Qwen Code change model in their running session (`/model …` typed at
// their prompt: the same CLI process, never relaunched, and the user's default model left as
// it was): the request carries the new model's name and the first turn, no brief is sent or
// recorded, and the transcript has a handoff to the new model in resume mode. Qwen Code gets a
// second model from its own settings (modelProviders: its /model takes only models configured
// there). `npm run test:real -- codex` runs one CLI's part.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { configuredModel } from '../../plugins/codex/models.js';
import { cmdlineOf, exeOf } from '../../src/proc/index.js';
import { bodyContains, type FakeLlm } from '../fake-llm/server.js';
import { pickEntry, pickerEntries } from '../helpers/baton-tui.js';
import { FAKE_MODEL } from '../helpers/cli-env.js';
import { processesWithHome, type MultiCliEnv } from '../helpers/multi-cli-env.js';
import {
  composeSend,
  endRealTui,
  recordedEntries,
  selectedClis,
  startRealBaton,
  startRealEnv,
  TUI_READY,
  TUI_TITLE,
  turnRecordedEnded,
} from '../helpers/real-tui.js';
import type { TestTerminal } from '../helpers/term.js';

const clis = selectedClis(['claude', 'codex', 'gemini', 'qwen'] as const);
/** The model chosen in the picker, and what the CLI then names in its requests. */
const NEXT: Record<(typeof clis)[number], { pick: string; sent: RegExp }> = {
  claude: { pick: 'haiku', sent: /haiku/ },
  // One without a successor: codex's TUI moves a session on gpt-5.5 to gpt-6-sol by itself.
  codex: { pick: 'gpt-6-luna', sent: /^gpt-6-luna$/ },
  gemini: { pick: 'gemini-2.5-pro', sent: /^gemini-2\.5-pro$/ },
  qwen: { pick: 'other-model', sent: /^other-model$/ },
};

/** The CLIs that change model in their running session rather than being relaunched. */
const IN_PLACE: ReadonlySet<string> = new Set(['claude', 'codex', 'gemini', 'qwen']);
/** The native binary each in-place CLI runs as (its npm command is a node shim that starts it). */
const NATIVE: Partial<Record<(typeof clis)[number], RegExp>> = {
  claude: /\/claude-code\/bin\/claude\.exe$/,
  codex: /\/@openai\/codex-[^/]+\/vendor\/[^/]+\/bin\/codex$/,
};
/** The script each node CLI runs as (its command, then the node child it relaunches itself as). */
const SCRIPT: Partial<Record<(typeof clis)[number], RegExp>> = {
  gemini: /\/(\.bin\/gemini|bundle\/gemini\.js)$/,
  qwen: /\/(\.bin\/qwen|qwen-code\/cli\.js)$/,
};
/** The pids of the running CLI's TUI (its native binary, or its node processes, never an `--acp` model probe) in this env's home. */
const cliPids = (cli: (typeof clis)[number]) =>
  processesWithHome(menv!.home).filter((pid) => {
    if (NATIVE[cli]) {
      const exe = exeOf(pid);
      return exe !== undefined && NATIVE[cli].test(exe);
    }
    const argv = cmdlineOf(pid) ?? [];
    return argv.some((a) => SCRIPT[cli]!.test(a)) && !argv.includes('--acp');
  });

/** Qwen Code's /model switches only to a model its settings configure: a second one beside the env's fake-model, both at the fake LLM. */
function qwenModels(env: MultiCliEnv): void {
  const path = join(env.home, '.qwen', 'settings.json');
  const settings = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  const provider = (id: string) => ({ id, name: id, baseUrl: env.env.OPENAI_BASE_URL, envKey: 'OPENAI_API_KEY' });
  settings.modelProviders = { openai: [provider('fake-model'), provider('other-model')] };
  writeFileSync(path, `${JSON.stringify(settings, null, 2)}\n`);
}

const s = suite('a model change mid-conversation in a tab');
let fake: FakeLlm | undefined;
let menv: MultiCliEnv | undefined;
let t: TestTerminal | undefined;

s.after.each(async () => {
  await endRealTui([t], menv, fake);
  t = menv = fake = undefined;
});

const idle = (cli: (typeof clis)[number]) => new RegExp(`1:${TUI_TITLE[cli]} idle(?= |$)`, 'm');
const batonHome = () => join(menv!.dir, 'baton-home');
const entries = () => recordedEntries(batonHome());

/** Sends `text` from the compose bar and waits until the model was asked about it. */
const compose = (text: string) => composeSend(t!, fake!, text);
/** The turn on `text` recorded as ended (until then the tab counts as working and a switch is refused). */
const ended = (text: string) => turnRecordedEnded(batonHome(), text);

for (const cli of clis) {
  const how = IN_PLACE.has(cli) ? 'changes model in the running session' : 'relaunches on the same session';
  s(`${cli}: another model from the switch picker ${how}, recorded as a new segment`, async () => {
    ({ fake, menv } = await startRealEnv([cli]));
    if (cli === 'qwen') qwenModels(menv);
    t = startRealBaton(menv, { cols: 140, rows: 40 });
    await pickEntry(t, TUI_TITLE[cli], 90_000);
    await t.waitFor((scr) => idle(cli).test(scr) && TUI_READY[cli].test(scr), 120_000, `${cli} ready`);

    const first = `first turn MODEL-ONE-${cli}`;
    await compose(first);
    await t.waitFor(idle(cli), 90_000, 'idle after the first turn');
    await ended(first);
    const firstModels = fake.requestsContaining(first).map((r) => r.model);
    assert.not.ok(
      firstModels.some((m) => NEXT[cli].sent.test(m)),
      `the first turn ran another model: ${firstModels}`,
    );

    t.press('C-b', 'a');
    await pickEntry(t, `${TUI_TITLE[cli]} · other model…`, 60_000);
    await t.waitFor(new RegExp(`┌─ Model of ${TUI_TITLE[cli]} `), 30_000, 'the model picker');
    await pickEntry(t, NEXT[cli].pick, 90_000);
    await t.waitFor(new RegExp(`Continue with ${TUI_TITLE[cli]} · ${NEXT[cli].pick.replace('.', '\\.')}`), 10_000, 'the model change armed');
    assert.equal(pickerEntries(t), [], 'no picker left open');
    const before = IN_PLACE.has(cli) ? cliPids(cli) : [];
    // gemini and qwen run as two node processes: their command and the child it relaunches itself as.
    if (IN_PLACE.has(cli)) assert.is(before.length, NATIVE[cli] ? 1 : 2, `the ${cli} TUI's processes before the change: ${before}`);

    const second = `on the new model MODEL-TWO-${cli}`;
    await compose(second);
    const asked = fake.requestsContaining(second).filter((r) => NEXT[cli].sent.test(r.model));
    assert.ok(asked.length > 0, `a request naming ${NEXT[cli].pick}: ${fake.requestsContaining(second).map((r) => r.model)}`);
    assert.ok(
      asked.some((r) => bodyContains(r, first)),
      'the same native session: the first turn is in the request',
    );
    assert.not.ok(
      asked.some((r) => bodyContains(r, 'baton transcript show')),
      'no brief was sent',
    );
    await ended(second);
    if (IN_PLACE.has(cli)) assert.equal(cliPids(cli), before, `the same ${cli} process: not relaunched`);
    if (cli === 'claude' || cli === 'gemini' || cli === 'qwen') {
      const settings = JSON.parse(readFileSync(join(menv.home, `.${cli}`, 'settings.json'), 'utf8')) as Record<string, unknown>;
      assert.not.ok('model' in settings, `the user's default model is left as it was: ${JSON.stringify(settings)}`);
    }
    if (cli === 'codex') {
      const config = readFileSync(join(menv.home, '.codex', 'config.toml'), 'utf8');
      assert.is(configuredModel(config), FAKE_MODEL, `the user's default model is left as it was: ${config}`);
    }
    const handoff = entries()
      .filter((e) => e.kind === 'handoff')
      .at(-1) as { to?: { harness: string; model: string }; mode?: string } | undefined;
    assert.is(handoff?.to?.harness, cli);
    assert.is(handoff?.to?.model, NEXT[cli].pick);
    assert.is(handoff?.mode, 'resume', `${cli} resumed its own session: ${JSON.stringify(handoff)}`);
    const said = entries()
      .filter((e) => e.kind === 'user_message')
      .map((e) => e.text);
    assert.equal(said, [first, second], 'each message recorded once, as typed');
  });
}

s.run();
