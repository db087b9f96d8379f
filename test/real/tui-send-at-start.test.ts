// real CLIs: opencode, gemini, qwen
// A message sent from the compose bar the moment a tab is opened, while its CLI is still
// starting (issue 9, deliver item 2): the built baton (dist/src/cli.js) in a real PTY, the
// real CLIs against the fake LLM. OpenCode takes 20 s or more to draw its prompt on a busy
// machine; Gemini CLI draws its input box seconds before it has initialised and queues what
// is submitted meanwhile ("Initializing... Prompts will be queued."); Qwen Code, a fork of
// it, says "Initializing..." while it starts. baton must not type into any of them before it
// can take input: the message waits in baton's queue and goes once the CLI's screen shows
// it is ready. It reaches the model once, is recorded once, and nothing is left in the
// compose bar or said to be.
// `npm run test:real -- opencode` runs one CLI's part (BATON_TEST_CLIS).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { join } from 'node:path';
import type { FakeLlm } from '../fake-llm/server.js';
import { echoText } from '../fake-llm/script.js';
import type { MultiCliEnv } from '../helpers/multi-cli-env.js';
import type { TestTerminal } from '../helpers/term.js';
import { until } from '../helpers/wait.js';
import { endServers, pickEntry } from '../helpers/baton-tui.js';
import { endRealTui, quitBaton, recordedUserMessages, selectedClis, serverRun, startRealBaton, startRealEnv } from '../helpers/real-tui.js';

type Cli = 'opencode' | 'gemini' | 'qwen';
const ALL: Cli[] = ['opencode', 'gemini', 'qwen'];
const TITLE: Record<Cli, string> = { opencode: 'opencode', gemini: 'Gemini CLI', qwen: 'Qwen Code' };
const clis = selectedClis(ALL);

let fake: FakeLlm;
let menv: MultiCliEnv;
let t: TestTerminal | undefined;

const home = (cli: Cli) => join(menv.dir, `baton-home-${cli}`);
const serverDir = (cli: Cli) => join(menv.dir, `server-${cli}`);

/** The user messages of every conversation `cli`'s baton recorded. */
const recorded = (cli: Cli): string[] => recordedUserMessages(home(cli));

/** Model turns on `text`: requests whose latest user message the fake echoed, starting with it. */
const turnsOn = (text: string) => fake.requests().filter((r) => r.reply?.kind === 'text' && r.reply.text.startsWith(echoText(text)));

const startBaton = (cli: Cli): TestTerminal => startRealBaton(menv, { cols: 140, rows: 40, batonHome: home(cli), serverDir: serverDir(cli) });

const s = suite('a compose-bar message sent while the CLI starts');
s.before(async () => {
  ({ fake, menv } = await startRealEnv(clis));
});
s.after(() => endRealTui([t], menv, fake, () => clis.map(serverDir)));

for (const cli of clis) {
  s(`${cli}: a message sent from the compose bar as the tab opens goes once the CLI is ready: reaches the model once, recorded once`, async () => {
    await t?.kill();
    t = startBaton(cli);
    await t.waitFor(new RegExp(`│${TITLE[cli]}  \\d`), 90_000, `the picker listing ${TITLE[cli]}`);
    await pickEntry(t!, TITLE[cli]);
    await t.waitFor(new RegExp(`1:${TITLE[cli]}`), 30_000, 'the tab');
    const marker = `AT-START-${cli.toUpperCase()}-${Date.now().toString(36)}`;
    const sentAt = Date.now();
    t.press('C-b', 'm');
    await t.waitFor(/›/, 10_000, 'the compose bar');
    t.type(marker);
    t.press('Enter');
    await until(() => turnsOn(marker).length > 0, `${cli} asking the model about ${marker}`, 240_000).catch((err: Error) => {
      throw new Error(`${err.message}; the screen:\n${t!.screenText()}`);
    });
    const tookMs = Date.now() - sentAt;
    await t.waitFor(new RegExp(`1:${TITLE[cli]}[^\\n]* idle`), 90_000, 'the tab idle again');
    await until(() => recorded(cli).includes(marker), 'the message recorded', 30_000).catch(() => undefined);

    const turns = turnsOn(marker);
    assert.is(turns.length, 1, `one model turn on the message (${tookMs} ms after it was sent): ${turns.map((r) => `#${r.seq} ${r.at}`).join('; ')}`);
    assert.is(turns[0]!.reply!.kind === 'text' && turns[0]!.reply!.text, echoText(marker), 'the model heard it once, not doubled');
    assert.equal(recorded(cli), [marker], 'recorded once, as typed');
    const screen = t.screenText();
    // Gemini says so in its history when a prompt reached it before it was ready.
    assert.not.match(screen, /Prompts will be queued/, `nothing was typed into ${cli} before it could take it: ${screen}`);
    assert.not.match(screen, /did not take your message|back in the compose bar/, 'no notice of a message handed back');
    assert.not.match(screen, new RegExp(`› ${marker}`), 'no copy left in the compose bar');
    await quitBaton(t);
    t = undefined;
    await endServers(serverRun(serverDir(cli)));
  });
}

s.run();
