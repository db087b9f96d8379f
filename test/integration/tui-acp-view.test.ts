// baton's view of an ACP agent, end to end in baton's TUI with a real ACP agent (the fixture
// agent, test/fixtures/acp-agent, as a drop-in): the picker offers "(baton view)"; a message
// from the compose bar starts a turn; a write asks with a card and marks the tab; y writes the
// file, n does not, Esc with a card open cancels it and the next turn runs; a write outside
// the tab's directory is refused by baton's client fs even when allowed; Esc while an allowed
// command runs ends the turn (baton ends the command); a shell call runs in
// a client terminal and its output shows on the card; the transcript has the user's message
// with its author, the approvals, the turns. Then baton is quit and started again: the tab it
// restores draws its history once, from baton's log, and the agent continues its own session
// (session/load), nothing recorded twice; and with a second tab in front, prefix ! answers the
// first tab's card without going to it.
// The tests are steps of one session, in order.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { fixtureDecl } from '../helpers/acp-fixture.js';
import { type BatonTui, builtBaton, endServers, pickEntry, ROOT, startBatonTui } from '../helpers/baton-tui.js';
import { TestTerminal } from '../helpers/term.js';
import { until, within } from '../helpers/wait.js';

const s = suite('tui acp view');
let b: BatonTui;
let again: TestTerminal | undefined;

const TURN_MS = 30_000;

/** Types a message into the view as a person would: the text shows in its input line, then Enter. */
async function say(t: TestTerminal, text: string): Promise<void> {
  t.type(text);
  await t.waitFor(text.slice(-20), 10_000, 'the message in the input line');
  t.press('Enter');
}

/** The transcript of the first tab's conversation (the one that began with "first"). */
const transcript = () => {
  const dir = join(b.home, 'state/baton/conversations');
  const id = readdirSync(dir).find((d) => readFileSync(join(dir, d, 'transcript.jsonl'), 'utf8').includes('"first [[write'))!;
  return readFileSync(join(dir, id, 'transcript.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
};

s.before(() => {
  b = startBatonTui({
    cols: 110,
    rows: 34,
    plugins: { 'acp-fixture.mjs': `export default (kit) => kit.acpDriver(${JSON.stringify(fixtureDecl())});\n` },
  });
});
s.after(async () => {
  await again?.kill();
  await b.cleanup();
});

s('the picker offers the view; a message from the compose bar; a write card marks the tab; y writes the file', async () => {
  await pickEntry(b.t, 'ACP fixture agent (baton view)');
  await b.t.waitFor('Enter sends', TURN_MS, 'the view ready');
  b.t.press('C-b');
  b.t.type('m');
  await b.t.waitFor(/›\s*$/m, 5000);
  await say(b.t, `first [[write ${join(b.work, 'yes.txt')} allowed text]]`);
  await b.t.waitFor('⚑ Permission needed', TURN_MS);
  await b.t.waitFor('needs you', 5000, 'the tab marked as waiting for the user');
  // Out of the compose bar, into the tab.
  // (An Escape and a key in one read would be Alt-key: wait for the compose bar to let go.)
  b.t.press('Escape');
  await b.t.waitFor('C-b m to write', 5000, 'the compose bar left');
  b.t.type('y');
  await b.t.waitFor('allowed once', TURN_MS);
  await b.t.waitFor('Enter sends', TURN_MS);
  assert.is(readFileSync(join(b.work, 'yes.txt'), 'utf8'), 'allowed text');
});

s('n rejects: the file is not written, the card says rejected', async () => {
  await say(b.t, `second [[write ${join(b.work, 'no.txt')} rejected]]`);
  await b.t.waitFor(' n  Reject', TURN_MS);
  b.t.type('n');
  await b.t.waitFor('rejected:', TURN_MS);
  await b.t.waitFor('Enter sends', TURN_MS);
  assert.not.ok(existsSync(join(b.work, 'no.txt')));
});

s('Esc with a card open cancels it (cancelled, nothing written); the next turn runs', async () => {
  await say(b.t, `third [[write ${join(b.work, 'cancel.txt')} cancelled]]`);
  await b.t.waitFor(' n  Reject', TURN_MS);
  b.t.press('Escape');
  await b.t.waitFor('cancelled:', TURN_MS);
  await b.t.waitFor('Enter sends', TURN_MS);
  assert.not.ok(existsSync(join(b.work, 'cancel.txt')));
  await say(b.t, 'fourth after the cancel');
  await b.t.waitFor('echo: fourth after the cancel', TURN_MS);
});

s("a write outside the tab's directory is refused by baton's client fs even when allowed", async () => {
  const outside = join(b.home, 'outside.txt');
  await say(b.t, `fifth [[write ${outside} escaped]]`);
  await b.t.waitFor(' y  Allow once', TURN_MS);
  b.t.type('y');
  // The fixture agent fails its turn with the client's error, which the view shows.
  await b.t.waitFor('baton refused it', TURN_MS, 'why the write failed');
  await b.t.waitFor('Enter sends', TURN_MS);
  assert.not.ok(existsSync(outside));
});

s('Esc while an allowed command runs: the turn ends without waiting for it (baton ends it), and the next turn runs', async () => {
  await say(b.t, '[[shell sleep 120]]');
  await b.t.waitFor(' y  Allow once', TURN_MS);
  b.t.type('y');
  await b.t.waitFor('◐ Run sleep 120', TURN_MS, 'the command running');
  const cancelled = Date.now();
  b.t.press('Escape');
  await b.t.waitFor('Enter sends', 30_000, 'the turn over long before the command would be');
  assert.ok(Date.now() - cancelled < 30_000);
  await say(b.t, 'after the running command');
  await b.t.waitFor('echo: after the running command', TURN_MS);
});

s('a shell call runs in a client terminal: the card shows the command and its output', async () => {
  await say(b.t, '[[shell echo from-the-terminal]]');
  await b.t.waitFor(' y  Allow once', TURN_MS);
  b.t.type('y');
  await b.t.waitFor('│ from-the-terminal', TURN_MS);
  await b.t.waitFor('Enter sends', TURN_MS);
});

s('the transcript: the message with its author, every decision as an approval, each turn ended', async () => {
  // (The tab's ingest follows the view's log a moment behind the screen.)
  await until(() => transcript().filter((e) => e.kind === 'turn_end').length >= 8, 'eight turns recorded');
  const entries = transcript();
  const users = entries.filter((e) => e.kind === 'user_message');
  assert.is(users.length, 8, JSON.stringify(users.map((u) => u.text)));
  assert.equal((users[0]!.author as { type: string }).type, 'user');
  assert.equal(
    entries.filter((e) => e.kind === 'approval').map((e) => e.decision),
    ['allowed', 'denied', 'cancelled', 'allowed', 'allowed', 'allowed'],
  );
  assert.is(entries.filter((e) => e.kind === 'turn_end').length, 8, entries.map((e) => e.kind).join(' '));
  assert.ok(entries.some((e) => e.kind === 'tool_call' && e.toolName === 'write_file'));
});

s("baton started again: the tab restored draws its history once, from baton's log, and the agent continues its session", async () => {
  const session = transcript().find((e) => e.kind === 'agent_session')!.agentSession as string;
  assert.match(session, /^view-/);
  b.t.press('C-b', 'q');
  await b.t.waitFor((scr) => /Quit baton/.test(scr) || b.t.exitCode !== undefined, 15_000).catch(() => undefined);
  if (/Quit baton/.test(b.t.screenText())) b.t.type('y');
  await within(b.t.exited, 30_000, undefined);
  await b.t.kill();
  await endServers(b.runtime);
  again = new TestTerminal([process.execPath, builtBaton(), b.work], { cols: 110, rows: 60, cwd: ROOT, env: b.env });
  {
    await again.waitFor('Open it again?', TURN_MS, 'the offer to restore the tab');
    again.type('y');
    await again.waitFor('Enter sends', TURN_MS);
    const screen = again.screenText();
    // The last turn, drawn from baton's log: the message and the command's output once each.
    assert.is(screen.match(/^ {2}\[\[shell echo from-the-terminal\]\]\s*$/gm)?.length, 1, `the message once:\n${screen}`);
    assert.is(screen.match(/│ from-the-terminal/g)?.length, 1, `the output once:\n${screen}`);
    await say(again, 'sixth');
    await again.waitFor('echo: sixth (previous: [[shell echo from-the-terminal]])', TURN_MS, 'the agent remembered its session');
    await until(() => transcript().filter((e) => e.kind === 'user_message').length === 9, 'the new message recorded');
    assert.is(transcript().filter((e) => e.kind === 'agent_text' && String(e.text).includes('echo: fourth')).length, 1, 'no history recorded twice');
  }
});

s('prefix ! answers a tab waiting in the background without going to it', async () => {
  const t = again!;
  await say(t, `seventh [[write ${join(b.work, 'background.txt')} answered from afar]]`);
  await t.waitFor(' y  Allow once', TURN_MS);
  t.press('C-b');
  t.type('c');
  await pickEntry(t, 'ACP fixture agent (baton view)');
  await t.waitFor(/2:ACP fixture agent.*\n(.*\n)*─ ACP fixture agent · Enter sends/, TURN_MS, 'the second tab in front, ready');
  t.press('C-b');
  t.type('!');
  await t.waitFor('asks: Write', 5000, 'the approval overlay');
  assert.match(t.screenText(), 'enter  go to the tab');
  t.type('y');
  await until(() => existsSync(join(b.work, 'background.txt')), 'the background tab allowed the write', TURN_MS);
  assert.match(t.screenText(), /2:ACP fixture agent/, 'still on the second tab');
});

s.run();
