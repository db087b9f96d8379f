// A large message of baton's that its CLI reads slowly (src/conversation/typing-in.ts): a
// TabSession sends it into a real PTY tab whose CLI reads nothing until the test lets it, and
// the tab's snapshot says it is being sent, with how much is in, once it has taken a while;
// the notice goes once all of it is in. Keys the user types into the pane meanwhile reach the
// CLI after the message and its Enter, as a message of their own, never inside it. The
// compose bar's words for it (compose-state.ts) are read from the same snapshots. Before,
// nothing said so: a 280 KB message took ~20 s into Codex and its tab showed nothing. And the
// wait for the CLI's log to show it (delivery.ts) starts once it is all in.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { TabSnapshot } from '../../src/conversation/index.js';
import { TabSession } from '../../src/conversation/tab-session.js';
import { loadRegistry } from '../../src/plugins/registry.js';
import { createConversation, type OpenConversation } from '../../src/transcript/store.js';
import { composeLines } from '../../src/tui/compose-lines.js';
import { composeState } from '../../src/tui/compose-state.js';
import { TabTerminal } from '../../src/tui/tab-terminal.js';
import { Tab } from '../../src/tui/tab.js';
import { until } from '../helpers/wait.js';

// The CLI: a paste and its Enter are one message, and so is a line typed; each is logged as
// the user's and answered at once. It reads nothing of its input until SLOW_CLI_GATE exists.
const CLI = `const { appendFileSync, existsSync } = require('node:fs');
const rec = (r) => appendFileSync(process.env.SLOW_CLI_LOG, JSON.stringify(r) + '\\n');
process.stdin.setRawMode(true);
process.stdout.write('\\x1b[?2004h> ');
let buf = '';
process.stdin.on('data', (d) => {
  buf += d.toString('utf8');
  for (;;) {
    const m = buf.startsWith('\\x1b[200~') ? /^\\x1b\\[200~([\\s\\S]*?)\\x1b\\[201~\\r/.exec(buf) : /^([^\\r]*)\\r/.exec(buf);
    if (!m) break;
    buf = buf.slice(m[0].length);
    // (An Enter in an empty box sends nothing, as in the agent CLIs.)
    if (!m[1]) continue;
    rec({ type: 'user_text', text: m[1].replace(/\\r/g, '\\n') });
    rec({ type: 'agent_text', text: 'ok' });
    rec({ type: 'turn_end' });
    process.stdout.write('\\r\\n> ');
  }
});
process.stdin.pause();
const t = setInterval(() => {
  if (!existsSync(process.env.SLOW_CLI_GATE)) return;
  clearInterval(t);
  process.stdin.resume();
}, 10);
`;

const dropIn = (cli: string) => `export default (kit) => ({
  name: 'slow',
  title: 'Slow CLI',
  families: [],
  capabilities: { resume: false, fork: false, enterWithPaste: true },
  async detect() { return { installed: true, installHint: 'written by test/typing-in.test.ts' }; },
  launch(opts) {
    return { command: process.execPath, args: [${JSON.stringify(cli)}], env: { SLOW_CLI_LOG: opts.env.SLOW_CLI_LOG, SLOW_CLI_GATE: opts.env.SLOW_CLI_GATE }, cwd: opts.cwd, session: 'slow-session-1' };
  },
  async ingest(opts) {
    const tail = await kit.tailJsonl(opts.env.SLOW_CLI_LOG, { onRecord: (r) => opts.onEvent(r) });
    return { agentSession: undefined, skipped: 0, dispose: () => tail.dispose() };
  },
});
`;

const s = suite('typing-in');
const user = { type: 'user' as const, name: 'tester', device: 'test' };

interface SlowTab {
  session: TabSession;
  terminal: TabTerminal;
  conv: OpenConversation;
  /** Lets the CLI read. */
  open(): void;
  /** Every snapshot the session told, from when the CLI read idle. */
  snaps: TabSnapshot[];
  users(): string[];
}

const ends: (() => Promise<void>)[] = [];
s.after.each(async () => {
  for (const end of ends.splice(0)) await end();
});

/** A tab session running the slow CLI (not reading yet), idle; `deliveryTimeoutMs` as a TabSession takes it. */
async function slowTab(deliveryTimeoutMs: number): Promise<SlowTab> {
  const home = mkdtempSync(join(tmpdir(), 'baton-typing-in-'));
  const gate = join(home, 'gate');
  const tabs: Tab[] = [];
  const cli = join(home, 'slow-cli.cjs');
  writeFileSync(cli, CLI);
  const plugins = join(home, 'plugins');
  mkdirSync(plugins);
  writeFileSync(join(plugins, 'slow.mjs'), dropIn(cli));
  const log = join(home, 'cli-log.jsonl');
  writeFileSync(log, '');
  const env = { ...process.env, BATON_HOME: join(home, 'baton'), XDG_CONFIG_HOME: join(home, 'config'), SLOW_CLI_LOG: log, SLOW_CLI_GATE: gate };
  const registry = await loadRegistry({ env, builtinDir: false, pluginDirs: [plugins] });
  const conv = await createConversation(join(home, 'baton'), { cwd: home, title: 'slow', user });
  const terminal = new TabTerminal((launch) => {
    const tab = new Tab(launch, { cols: 80, rows: 10, baseEnv: { PATH: process.env.PATH } });
    tabs.push(tab);
    return tab;
  });
  const session = new TabSession({ conversation: conv, registry, terminal, env, deliveryTimeoutMs });
  const open = () => writeFileSync(gate, '');
  ends.push(async () => {
    open();
    await session.dispose();
    terminal.dispose();
    for (const t of tabs) await t.dispose();
    await registry.dispose();
    rmSync(home, { recursive: true, force: true });
  });
  assert.is((await session.start('slow')).kind, 'started');
  await until(() => session.status.current === 'idle', 'the CLI reads idle', 20_000);
  const snaps: TabSnapshot[] = [];
  session.onChange((snap) => snaps.push(snap));
  const users = () => conv.transcript.entries.flatMap((e) => (e.kind === 'user_message' ? [e.text] : []));
  return { session, terminal, conv, open, snaps, users };
}

const LONG = `${'a long message '.repeat(16 * 1024)}the end`;

s('a message the CLI reads slowly: the tab says it is being sent and how much is in, until it is; keys typed meanwhile go in after it', async () => {
  // A minute for the log to show it: the test's own pace (a loaded machine) must not give it up.
  const { session, terminal, open, snaps, users } = await slowTab(60_000);
  const sent = session.send(LONG);
  await until(() => snaps.some((x) => x.sending), 'the snapshot says it is being sent', 20_000);
  const first = snaps.find((x) => x.sending)!.sending!;
  // What went in: the paste's markers and its Enter around the message.
  const total = LONG.length + 13;
  assert.equal(first.total, total);
  assert.ok(first.written < total, `${first.written} of ${total}`);
  const bar = composeLines(
    composeState({ user, snap: snaps.at(-1)!, shell: false }),
    { draft: '', cursor: 0, focused: true, selected: undefined },
    120,
    30,
    'C-b',
  );
  assert.match(bar.join('\n'), /sending your message to Slow CLI: \d+ \/ 241 KB in · keys typed into its pane go in after it/);
  // The user types into the pane meanwhile: behind the message and its Enter.
  terminal.write('typed meanwhile\r');
  open();
  assert.is((await sent).kind, 'delivered');
  await until(() => session.snapshot().sending === undefined, 'the notice gone once it is in', 20_000);
  assert.is(snaps.at(-1)!.sending, undefined);
  await until(() => users().length === 2, 'the typed message recorded too', 20_000);
  assert.is(users()[0], LONG, 'the message whole, nothing typed inside it');
  assert.is(users()[1], 'typed meanwhile');
});

// Before, the wait for the log began as the message was written: with a 1.5 s timeout, the
// retry Enter went at 1.5 s and the message was given up on at 3 s (back in the compose bar,
// "did not take your message") while it was still going in.
s('the wait for the log to show the message starts once it is all in, however long it took to go in', async () => {
  const { session, open, snaps, users } = await slowTab(1500);
  const sent = session.send(LONG);
  // Told once it has taken 1 s, then every 250 ms: 14 times is past 4 s, longer than both waits of 1.5 s.
  await until(() => snaps.filter((x) => x.sending).length >= 14, 'the message still going in after 4 s', 30_000);
  open();
  assert.is((await sent).kind, 'delivered');
  assert.equal(users(), [LONG]);
});

s.run();
