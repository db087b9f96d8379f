// `baton chat --summary` with the ACP fixture agent (it echoes its prompt): the outgoing
// agent's summary is one `summary` entry of its own, the brief the next agent receives
// shows it, and the switch's card regenerates byte-identical from the transcript.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../src/cli.js';
import { bufferIo } from '../../src/commands/io.js';
import { readConversation } from '../../src/transcript/store.js';
import { regenerateCard, switchDividers } from '../../src/conversation/handoff-card.js';
import { SUMMARY_PROMPT } from '../../src/conversation/summary-turn.js';
import { writeFixtureDropIn } from '../helpers/acp-fixture.js';

let home = '';
let cwd = '';
let plugins = '';

async function chat(args: string[]) {
  const io = bufferIo({ ...process.env, BATON_HOME: home, XDG_CONFIG_HOME: join(home, 'config'), BATON_BRIEF_MAX_CHARS: '3000' }, cwd);
  const code = await main(['--plugins', plugins, 'chat', '--json', ...args], io);
  assert.is(code, 0, io.stderr());
  return JSON.parse(io.stdout()) as { conversation: string; entries: { kind: string; text?: string; seq: number }[] };
}

const s = suite('summary turn');
s.before(() => {
  home = mkdtempSync(join(tmpdir(), 'baton-summary-'));
  cwd = mkdtempSync(join(tmpdir(), 'baton-summary-cwd-'));
  plugins = join(home, 'plugins');
  for (const name of ['alpha', 'beta']) writeFixtureDropIn(plugins, { name, title: name.toUpperCase(), env: { ACP_FIXTURE_HOME: join(home, name) } });
});
s.after(() => {
  rmSync(home, { recursive: true, force: true });
  rmSync(cwd, { recursive: true, force: true });
});

s('the summary is an entry of its own, in the brief the next agent gets, and the card regenerates byte-identical', async () => {
  const a = await chat(['--new', '--agent', 'alpha', `first SUMMARY-1 ${'alpha '.repeat(300)}`]);
  const id = a.conversation;
  await chat(['--conversation', id, `second SUMMARY-2 ${'gamma '.repeat(300)}`]);
  const toBeta = await chat(['--conversation', id, '--agent', 'beta', '--summary', 'third SUMMARY-3']);
  const summary = toBeta.entries.find((e) => e.kind === 'summary');
  assert.ok(summary, 'a summary entry');
  // The fixture echoes: alpha was asked the fixed summary request (on its own session, or with a brief).
  assert.ok(summary!.text!.includes(SUMMARY_PROMPT.slice(0, 60)), 'alpha answered the summary request');
  assert.equal(
    toBeta.entries.filter((e) => e.kind === 'user_message').map((e) => e.text),
    ['third SUMMARY-3'],
    'the summary request is not a message of the conversation',
  );
  const conv = await readConversation(home, id);
  const divider = switchDividers(conv.transcript.entries).at(-1)!;
  assert.ok(divider.seq > summary!.seq, 'the summary comes before the switch');
  const card = regenerateCard(conv.transcript, divider.seq, { alpha: 'ALPHA', beta: 'BETA' });
  assert.is(card.matches, true);
  assert.match(card.text!, /Summary of #1\.\.#\d+ by ALPHA .*asked for before the switch/);
  const betaSaw = toBeta.entries
    .filter((e) => e.kind === 'agent_text')
    .map((e) => e.text)
    .join('');
  assert.ok(betaSaw.startsWith(`echo: ${card.text!}`), 'the card is exactly the text beta received');
});

s.run();
