// The handed-over-context card regenerated from the transcript equals what was sent:
// its hash matches the one recorded at the switch, for a fresh brief and a returning delta.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { main } from '../../src/cli.js';
import { bufferIo } from '../../src/commands/io.js';
import { readConversation } from '../../src/transcript/store.js';
import { regenerateCard, switchDividers, CARD_LABEL } from '../../src/conversation/handoff-card.js';
import { writeFixtureDropIn } from '../helpers/acp-fixture.js';

let home = '';
let repo = '';
let plugins = '';

async function chat(args: string[]) {
  const io = bufferIo({ ...process.env, BATON_HOME: home, XDG_CONFIG_HOME: join(home, 'config') }, repo);
  const code = await main(['--plugins', plugins, 'chat', '--json', ...args], io);
  assert.is(code, 0, io.stderr());
  return JSON.parse(io.stdout()) as { conversation: string; entries: { kind: string; text?: string }[] };
}

const c = suite('handoff card');
c.before(() => {
  home = mkdtempSync(join(tmpdir(), 'baton-card-'));
  repo = mkdtempSync(join(tmpdir(), 'baton-card-repo-'));
  plugins = join(home, 'plugins');
  for (const name of ['alpha', 'beta']) writeFixtureDropIn(plugins, { name, title: name.toUpperCase(), env: { ACP_FIXTURE_HOME: join(home, name) } });
  execFileSync('git', ['init', '-q', '-b', 'main', repo]);
  execFileSync('git', ['-C', repo, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '--allow-empty', '-m', 'init']);
});
c.after(() => {
  rmSync(home, { recursive: true, force: true });
  rmSync(repo, { recursive: true, force: true });
});

c('the card of every switch regenerates byte-identical to what the agent received', async () => {
  const a = await chat(['--new', '--agent', 'alpha', 'first CARD-1']);
  const id = a.conversation;
  const toBeta = await chat(['--conversation', id, '--agent', 'beta', 'second CARD-2']);
  await chat(['--conversation', id, '--agent', 'alpha', 'third CARD-3']);
  const conv = await readConversation(home, id);
  const titles = { alpha: 'ALPHA', beta: 'BETA' };
  const dividers = switchDividers(conv.transcript.entries);
  assert.is(dividers.length, 2);
  const fresh = regenerateCard(conv.transcript, dividers[0]!.seq, titles);
  assert.is(fresh.mode, 'fresh');
  assert.is(fresh.matches, true);
  // What beta actually received is the fixture's echo of its prompt: brief + message.
  const betaSaw = toBeta.entries
    .filter((e) => e.kind === 'agent_text')
    .map((e) => e.text)
    .join('');
  assert.ok(betaSaw.startsWith(`echo: ${fresh.text!}`), 'the card is exactly the text beta received');
  assert.ok(fresh.lastIncludedSeq! < dividers[0]!.seq);
  const back = regenerateCard(conv.transcript, dividers[1]!.seq, titles);
  assert.is(back.mode, 'resume');
  assert.is(back.matches, true);
  assert.match(back.text!, /Returning/);
  assert.ok(CARD_LABEL.includes('not stored'));
  await conv.close();
});

c.run();
