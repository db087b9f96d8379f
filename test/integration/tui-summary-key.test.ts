// The switch dialog's `s` (a summary first) in the built baton, in a real PTY, with two drop-in
// agents whose stand-in CLIs log what they are given and answer (the driver's ingest follows
// that log): the key is listed only when there is something to summarize, toggles, and arms
// "Continue with Other · summary first"; the message sent then reaches the outgoing agent
// only as baton's summary request (shown in its pane), never as itself, and goes to the new
// agent once, after; the summary is recorded as a `summary` entry. Esc after `s` arms nothing.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SUMMARY_PROMPT } from '../../src/conversation/summary-turn.js';
import { pickEntry, pickerEntries, startBatonTui, type BatonTui } from '../helpers/baton-tui.js';
import { pasteInput } from '../helpers/paste-cli.js';
import { pressEscape, recordedEntries } from '../helpers/real-tui.js';
import { until } from '../helpers/wait.js';

/** A CLI that logs each message it takes as the user's and answers it (a summary request with a summary), then ends the turn. */
const CLI = `import { appendFileSync } from 'node:fs';
const log = process.env.TALK_LOG;
const rec = (r) => appendFileSync(log, JSON.stringify(r) + '\\n');
${pasteInput('talk ready> ')}
onMessage((text) => {
  rec({ type: 'user_text', text });
  const answer = text.includes(${JSON.stringify(SUMMARY_PROMPT.slice(0, 60))}) ? 'TALK-SUMMARY: the user said hello and wants it kept.' : 'got ' + text.length + ' chars';
  process.stdout.write('\\r\\n' + answer);
  rec({ type: 'agent_text', text: answer });
  rec({ type: 'turn_end' });
});
`;

/** A drop-in running CLI as `name`, its log `log` (made empty at each launch, followed by its ingest). */
const dropIn = (name: string, title: string, cli: string, log: string) => `import { writeFileSync } from 'node:fs';
export default (kit) => ({
  name: ${JSON.stringify(name)},
  title: ${JSON.stringify(title)},
  families: [],
  capabilities: { resume: false, fork: false, tabSession: true },
  async detect() { return { installed: true, version: '1.0.0', installHint: 'written by test/integration/tui-summary-key.test.ts' }; },
  launch(opts) {
    writeFileSync(${JSON.stringify(log)}, '');
    return { command: process.execPath, args: [${JSON.stringify(cli)}], env: { TALK_LOG: ${JSON.stringify(log)} }, cwd: opts.cwd };
  },
  statusFromScreen: (lines) => (lines.some((l) => l.includes('talk ready>')) ? 'idle' : undefined),
  async ingest(opts) {
    const tail = await kit.tailJsonl(${JSON.stringify(log)}, { onRecord: (r) => opts.onEvent(r) });
    return { agentSession: undefined, skipped: 0, dispose: () => tail.dispose() };
  },
});
`;

const s = suite('tui: the switch dialog summary key');
let b: BatonTui | undefined;
/** The stand-in CLI and its logs. */
let dir: string | undefined;

s.after.each(async () => {
  await b?.cleanup();
  if (dir) rmSync(dir, { recursive: true, force: true });
  b = dir = undefined;
});

/** baton with the Talk and Other agents, a Talk tab open and ready. */
async function talkTab(): Promise<BatonTui & { logs: { talk: string; other: string } }> {
  dir = mkdtempSync(join(tmpdir(), 'baton-summary-key-'));
  const cli = join(dir, 'talk-cli.mjs');
  writeFileSync(cli, CLI);
  const logs = { talk: join(dir, 'talk.jsonl'), other: join(dir, 'other.jsonl') };
  b = startBatonTui({
    cols: 120,
    rows: 34,
    plugins: { 'talk.mjs': dropIn('talk', 'Talk', cli, logs.talk), 'other.mjs': dropIn('other', 'Other', cli, logs.other) },
  });
  await pickEntry(b.t, 'Talk', 30_000);
  await b.t.waitFor(/1:Talk idle/, 30_000, 'the Talk tab ready');
  return { ...b, logs };
}

const logged = (file: string): string[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { type: string; text?: string })
    .filter((r) => r.type === 'user_text')
    .map((r) => r.text ?? '');

async function send(bt: BatonTui, text: string): Promise<void> {
  bt.t.press('C-b', 'm');
  await bt.t.waitFor(/›/, 10_000, 'the compose bar');
  bt.t.type(text);
  await bt.t.waitFor((scr) => scr.includes(`› ${text}`), 10_000, 'the draft');
  bt.t.press('Enter');
}

s('with nothing said yet the switch dialog offers no summary key', async () => {
  const bt = await talkTab();
  bt.t.press('C-b', 'a');
  await bt.t.waitFor(/┌─ Continue with[^]*Other  1\.0\.0/, 30_000, 'the switch picker');
  assert.not.match(bt.t.screenText(), /summary first/);
  await pressEscape(bt.t);
});

s('s toggles a summary first; the armed switch says so; the message goes to Other once, after Talk wrote its summary', async () => {
  const bt = await talkTab();
  await send(bt, 'hello MARK-HELLO');
  const home = join(bt.home, 'state', 'baton');
  await until(() => recordedEntries(home).some((e) => e.kind === 'turn_end'), 'the first turn recorded', 30_000);
  await pressEscape(bt.t);

  // Esc after s: nothing armed.
  bt.t.press('C-b', 'a');
  await bt.t.waitFor(/s \[ \] Talk writes a summary first, for the brief/, 30_000, 'the summary key listed');
  bt.t.type('s');
  await bt.t.waitFor(/s \[x\] Talk writes a summary first/, 10_000, 'toggled on');
  await pressEscape(bt.t);
  assert.equal(pickerEntries(bt.t), []);
  assert.not.match(bt.t.screenText(), /Continue with/);

  // s twice is off again: a plain switch would be armed; s once more, and Other picked.
  bt.t.press('C-b', 'a');
  await bt.t.waitFor(/s \[ \] Talk writes a summary first/, 30_000, 'off again in a new dialog');
  bt.t.type('s');
  await bt.t.waitFor(/s \[x\] Talk writes a summary first/, 10_000, 'on');
  bt.t.type('s');
  await bt.t.waitFor(/s \[ \] Talk writes a summary first/, 10_000, 'off');
  bt.t.type('s');
  await bt.t.waitFor(/s \[x\] Talk writes a summary first/, 10_000, 'on');
  await pickEntry(bt.t, 'Other', 10_000);
  await bt.t.waitFor(/Continue with Other · summary first/, 10_000, 'armed with a summary first');

  await send(bt, 'to other MARK-NEXT');
  await bt.t.waitFor(/1:Other idle/, 30_000, 'the tab runs Other');
  await until(() => recordedEntries(home).some((e) => e.kind === 'user_message' && e.text === 'to other MARK-NEXT'), 'the message recorded', 30_000);
  // Talk took the summary request only; Other the brief (with the summary) and the message, once.
  const toTalk = logged(bt.logs.talk);
  assert.is(toTalk.length, 2, toTalk.join(' | '));
  assert.is(toTalk[0], 'hello MARK-HELLO');
  assert.is(toTalk[1], SUMMARY_PROMPT);
  const toOther = logged(bt.logs.other);
  assert.is(toOther.length, 1, toOther.join(' | '));
  assert.ok(toOther[0]!.endsWith('to other MARK-NEXT'));
  assert.is(toOther[0]!.split('MARK-NEXT').length, 2, 'the message once');
  const entries = recordedEntries(home);
  const summaries = entries.filter((e) => e.kind === 'summary');
  assert.is(summaries.length, 1);
  assert.is(summaries[0]!.text, 'TALK-SUMMARY: the user said hello and wants it kept.');
  assert.equal(
    entries.filter((e) => e.kind === 'user_message').map((e) => e.text),
    ['hello MARK-HELLO', 'to other MARK-NEXT'],
  );
  // (The switch settles once the message was taken: the compose bar is drawn again then.)
  await bt.t.waitFor((scr) => !scr.includes('Continue with'), 10_000, 'the switch done, nothing armed');
});

s.run();
