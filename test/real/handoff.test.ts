// real CLIs: claude, codex, gemini, qwen, opencode
// One conversation carried across the five real agent CLIs with `baton chat`, against the
// project's fake LLM, all CLIs sharing one HOME and one environment as baton gives them:
//   - the ring claude -> codex -> gemini -> qwen -> opencode -> claude: each target's first
//     model request carries a marker from the first turn and the last instruction;
//   - switching back: claude -> codex -> claude resumes claude's own session (its request
//     holds its earlier native messages) and sends only the codex delta, not a replay;
//   - import of a session a CLI ran on its own, then a handoff of it to another CLI.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { bodyContains, type LoggedRequest } from '../fake-llm/server.js';
import { BatonInEnv } from '../helpers/baton-in-env.js';
import { CLI_RUNS } from '../helpers/cli-runs.js';
import { runCli } from '../helpers/run-cli.js';

const RING = ['claude', 'codex', 'gemini', 'qwen', 'opencode'] as const;
const TIMEOUT_S = '240';

const h = suite('handoff across real CLIs');
const home = new BatonInEnv(h, RING, TIMEOUT_S);
const { baton, chat } = home;

/** The first model request (not a background call) made since `from` that carries `marker`. */
function firstRequestWith(from: number, marker: string): LoggedRequest {
  const hit = home.fake
    .requests()
    .slice(from)
    .find((r) => r.kind === 'generate' && bodyContains(r, marker));
  assert.ok(hit, `no model request carried ${marker}`);
  return hit!;
}

h('the ring claude -> codex -> gemini -> qwen -> opencode -> claude', async () => {
  const first = await chat(['--new', '--agent', 'claude', 'Remember RING-ORIGIN-7731 for later.']);
  const id = first.conversation;
  assert.match(
    first.entries
      .filter((e) => e.kind === 'agent_text')
      .map((e) => e.text)
      .join(''),
    /RING-ORIGIN-7731/,
  );
  const hops = [...RING.slice(1), 'claude'];
  for (const [i, agent] of hops.entries()) {
    const instruction = `Hop ${i + 1}: continue with RING-HOP-${i + 1}.`;
    const before = home.fake.requests().length;
    const r = await chat(['--conversation', id, '--agent', agent, instruction]);
    assert.is(r.agent, agent);
    assert.ok(r.handoff, `hop to ${agent} is a handoff`);
    const req = firstRequestWith(before, `RING-HOP-${i + 1}`);
    assert.ok(bodyContains(req, 'RING-ORIGIN-7731'), `${agent}'s first request carries the first turn's marker`);
    assert.ok(bodyContains(req, instruction), `${agent}'s first request carries the last instruction`);
    if (i > 0) assert.ok(bodyContains(req, `RING-HOP-${i}`), `${agent}'s first request carries the previous hop`);
  }
  const show = await baton(['transcript', 'show', id]);
  for (const [a, b] of [
    ['claude', 'codex'],
    ['opencode', 'claude'],
  ])
    assert.match(show.out, new RegExp(`Switched this conversation from ${a} to ${b}`));
});

h("switching back resumes claude's own session and sends only the codex delta", async () => {
  const first = await chat(['--new', '--agent', 'claude', 'Note BACK-FIRST-4410 please.']);
  const id = first.conversation;
  await chat(['--conversation', id, '--agent', 'codex', 'Codex, add BACK-CODEX-5520.']);
  const before = home.fake.requests().length;
  const back = await chat(['--conversation', id, '--agent', 'claude', 'Claude again: BACK-RETURN-6630.']);
  assert.is(back.handoff!.mode, 'resume');
  const req = firstRequestWith(before, 'BACK-RETURN-6630');
  assert.is(req.api, 'anthropic');
  const messages = (req.body as { messages: { role: string; content: unknown }[] }).messages;
  const asText = (m: { content: unknown }) => JSON.stringify(m.content);
  // claude's own earlier turn is in its native history, as an earlier message...
  assert.ok(
    messages.slice(0, -1).some((m) => m.role === 'user' && asText(m).includes('BACK-FIRST-4410')),
    'native history resumed',
  );
  // ...and the new message carries the delta (codex's turn), not a replay of the first turn.
  const last = asText(messages[messages.length - 1]!);
  // The fake LLM's replies echo what they were sent, so codex's reply quotes the replay it
  // got; judge the delta by what baton wrote before that quote.
  // (The conversation's title is its first message, so the title line names it; skip that line.)
  const own = last.slice(0, last.indexOf('FAKE-LLM reply')).replace(/Title: [^\\]*\\n/, '');
  assert.match(own, /Returning/);
  assert.match(own, /BACK-CODEX-5520/);
  assert.not.match(own, /Fresh start/);
  assert.not.match(own, /BACK-FIRST-4410/, "claude's own first turn is not replayed to it");
  assert.match(last, /BACK-RETURN-6630/);
});

h('a session each of the five CLIs ran on its own is imported, then handed to another CLI', async () => {
  for (const how of CLI_RUNS) {
    const name = how.name;
    const marker = `IMPORT-${name.toUpperCase()}-8841`;
    const solo = await runCli(home.menv.cli(name), how.turn(`Keep ${marker} in mind.`));
    const session = how.parse(solo).session;
    assert.ok(session, `${name} reported its session`);
    assert.is(solo.code, 0, solo.stderr);
    const im = await baton(['transcript', 'import', '--from', name, session]);
    assert.is(im.code, 0, im.err);
    const id = /as conversation (\S+)/.exec(im.out)![1]!;
    const before = home.fake.requests().length;
    const target = name === 'codex' ? 'claude' : 'codex';
    await chat(['--conversation', id, '--agent', target, `Continue from ${name}: IMPORTED-NEXT.`]);
    const req = firstRequestWith(before, 'IMPORTED-NEXT');
    assert.ok(bodyContains(req, marker), `${target} got ${name}'s own session content`);
  }
});

h.run();
