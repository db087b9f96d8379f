// real CLIs: opencode, gemini
// A message sent from the compose bar the moment a tab is opened, while its CLI is still
// starting (issue 9, deliver item 2): the built baton (dist/src/cli.js) in a real PTY, the
// real CLIs against the fake LLM. OpenCode takes 20 s or more to draw its prompt on a busy
// machine; Gemini CLI draws its input box seconds before it has initialised and queues what
// is submitted meanwhile ("Initializing... Prompts will be queued."). baton must not type
// into either before it can take input: the message waits in baton's queue and goes once
// the CLI's screen shows it is ready. It reaches the model once, is recorded once, and
// nothing is left in the compose bar or said to be.
// `npm run test:real -- opencode` runs one CLI's part (BATON_TEST_CLIS).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeLlm, type FakeLlm } from '../fake-llm/server.js';
import { echoText } from '../fake-llm/script.js';
import { multiCliEnv, type MultiCliEnv } from '../helpers/multi-cli-env.js';
import { TestTerminal, until } from '../helpers/term.js';
import { endServers, ROOT, serverEnv } from '../helpers/baton-tui.js';

type Cli = 'opencode' | 'gemini';
const ALL: Cli[] = ['opencode', 'gemini'];
const TITLE: Record<Cli, string> = { opencode: 'opencode', gemini: 'Gemini CLI' };
const only = process.env.BATON_TEST_CLIS?.split(',').filter(Boolean);
const clis = ALL.filter((c) => !only?.length || only.includes(c));

let fake: FakeLlm;
let menv: MultiCliEnv;
let t: TestTerminal | undefined;

const home = (cli: Cli) => join(menv.dir, `baton-home-${cli}`);
const serverDir = (cli: Cli) => join(menv.dir, `server-${cli}`);

/** The user messages of every conversation `cli`'s baton recorded. */
function recorded(cli: Cli): string[] {
  const dir = join(home(cli), 'conversations');
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const id of readdirSync(dir)) {
    const file = join(dir, id, 'transcript.jsonl');
    if (!existsSync(file)) continue;
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (!line.trim()) continue;
      const e = JSON.parse(line) as { kind?: string; text?: string };
      if (e.kind === 'user_message') out.push(e.text ?? '');
    }
  }
  return out;
}

/** Model turns on `text`: requests whose latest user message the fake echoed, starting with it. */
const turnsOn = (text: string) => fake.requests().filter((r) => r.reply?.kind === 'text' && r.reply.text.startsWith(echoText(text)));

function startBaton(cli: Cli): TestTerminal {
  return new TestTerminal([process.execPath, join(ROOT, 'dist/src/cli.js'), menv.cwd], {
    cols: 140,
    rows: 40,
    cwd: menv.cwd,
    env: { ...menv.env, ...serverEnv(serverDir(cli)), BATON_HOME: home(cli), XDG_CONFIG_HOME: join(menv.dir, 'config'), TERM: 'xterm-256color', LANG: 'C.UTF-8' },
  });
}

/** Moves the open picker's selection down to the entry whose label starts with `label`, and takes it. */
function pick(label: string): void {
  const rows = t!.rows();
  const top = rows.findIndex((r) => /┌─ New tab /.test(r));
  const col = rows[top]!.indexOf('┌');
  const items: string[] = [];
  for (const r of rows.slice(top + 1)) {
    if ([...r][col] !== '│') break;
    items.push([...r].slice(col + 1).join('').split('│')[0]!.trim());
  }
  const at = items.findIndex((i) => i === label || i.startsWith(`${label}  `));
  assert.ok(at >= 0, `the picker lists ${label}: ${items.join(' | ')}`);
  for (let i = 0; i < at; i++) t!.press('Down');
  t!.press('Enter');
}

const s = suite('a compose-bar message sent while the CLI starts');
s.before(async () => {
  fake = await startFakeLlm();
  menv = multiCliEnv({ fakeUrl: fake.url, names: clis });
  execFileSync('git', ['init', '-q', '-b', 'main', menv.cwd]);
  execFileSync('git', ['-C', menv.cwd, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '--allow-empty', '-m', 'init']);
});
s.after(async () => {
  await t?.kill();
  // The tabs run in baton's server: ended by pid with each socket directory.
  if (menv) for (const cli of clis) await endServers(join(serverDir(cli), 'run'));
  await menv?.cleanup();
  await fake?.close();
});

for (const cli of clis) {
  s(`${cli}: a message sent from the compose bar as the tab opens goes once the CLI is ready: reaches the model once, recorded once`, async () => {
    await t?.kill();
    t = startBaton(cli);
    await t.waitFor(new RegExp(`│${TITLE[cli]}  \\d`), 90_000, `the picker listing ${TITLE[cli]}`);
    pick(TITLE[cli]);
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
    t.press('C-b', 'q');
    await t.waitFor((scr) => /Quit baton/.test(scr) || t!.exitCode !== undefined, 15_000).catch(() => undefined);
    if (/Quit baton/.test(t.screenText())) t.type('y');
    await Promise.race([t.exited, new Promise((r) => setTimeout(r, 30_000))]);
    await t.kill();
    t = undefined;
    await endServers(join(serverDir(cli), 'run'));
  });
}

s.run();
