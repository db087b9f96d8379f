// real CLIs: claude, codex, opencode
// Forks of conversations run by the real claude, codex and opencode CLIs with `baton chat`,
// against the project's fake LLM (all three sharing one HOME, as baton gives them):
//   - native: a fork at the last of two turns; the fork's first model request holds both
//     turns as the CLI's own earlier messages and no baton brief, it runs in a NEW native
//     session that the fork's next turn continues, and the source's session is as it was
//     (resuming it does not see the fork);
//   - replay: a fork at the first turn; the first request is a fresh session whose one
//     message is the brief with turn 1 and nothing of turn 2;
//   - claude, into a git worktree at the last turn: native too (its session carried into
//     the worktree's project dir), and claude runs in the worktree.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { readConversation } from '../../src/transcript/store.js';
import { BRIEF_BEGIN } from '../../src/transcript/brief-sections.js';
import { projectDir } from '../../plugins/claude/home.js';
import { parseAnthropic } from '../fake-llm/anthropic.js';
import { parseChat } from '../fake-llm/openai-chat.js';
import { parseResponses } from '../fake-llm/openai-responses.js';
import type { Conversation } from '../fake-llm/conversation.js';
import { bodyContains, type LoggedRequest } from '../fake-llm/server.js';
import { BatonInEnv } from '../helpers/baton-in-env.js';
import { initRepo } from '../helpers/git-repo.js';

const AGENTS = ['claude', 'codex', 'opencode'] as const;
const TIMEOUT_S = '240';

const s = suite('forks with real CLIs');
const home = new BatonInEnv(s, AGENTS, TIMEOUT_S);
const { env: batonEnv, chat, fork } = home;

/** A model request as the fake LLM reads it: the user's texts (CLI context blocks stripped) and the tools. */
function parsed(r: LoggedRequest): Conversation | undefined {
  const body = r.body as Record<string, unknown>;
  if (r.api === 'anthropic') return parseAnthropic(body);
  if (r.api === 'openai-chat') return parseChat(body);
  if (r.api === 'openai-responses') return parseResponses(body);
  return undefined;
}

const userTexts = (c: Conversation) => c.items.flatMap((i) => (i.kind === 'user_text' ? [i.text] : []));

/** The agent's first model request since `from` whose last user text carries `marker` (not a title or other side call: the agent's own request declares tools). */
function agentRequest(from: number, marker: string): { req: LoggedRequest; conv: Conversation } {
  for (const req of home.fake.requests().slice(from)) {
    if (req.kind !== 'generate' || !bodyContains(req, marker)) continue;
    const conv = parsed(req);
    if (conv?.tools.length && userTexts(conv).at(-1)?.includes(marker)) return { req, conv };
  }
  throw new Error(`no agent request since #${from} ended with a user message carrying ${marker}`);
}

async function cursorOf(id: string, harness: string) {
  const c = await readConversation(batonEnv().BATON_HOME, id);
  const cur = c.transcript.cursor(harness);
  const last = c.transcript.lastSeq;
  const firstReply = c.transcript.entries.find((e) => e.kind === 'turn_end')?.seq;
  await c.close();
  return { cursor: cur, lastSeq: last, endOfFirstTurn: firstReply };
}

/** Two turns with `agent`: markers ONE and TWO. Returns the ids and seqs. */
async function twoTurns(agent: string, tag: string) {
  const one = `FORK-ONE-${tag}`;
  const two = `FORK-TWO-${tag}`;
  const first = await chat(['--new', '--agent', agent, `Turn one: remember ${one}.`]);
  const id = first.conversation;
  await chat(['--conversation', id, `Turn two: remember ${two}.`]);
  const { cursor, lastSeq, endOfFirstTurn } = await cursorOf(id, agent);
  assert.ok(cursor, `${agent} confirmed its own session`);
  return { id, one, two, session: cursor!.agentSession, lastSeq, endOfFirstTurn: endOfFirstTurn! };
}

for (const agent of AGENTS) {
  s(`${agent}: native fork at the last turn, replay fork at the first`, async () => {
    const tag = agent.toUpperCase();
    const { id, one, two, session: S, lastSeq, endOfFirstTurn } = await twoTurns(agent, tag);

    const nat = await fork([id, '--at', String(lastSeq)]);
    assert.is(nat.mode, 'native', nat.replayReason);
    assert.equal(nat.nativeSession, { harness: agent, agentSession: S });
    let from = home.fake.requests().length;
    const forkMsg = `Fork turn: FORK-NEW-${tag}.`;
    await chat(['--conversation', nat.id, forkMsg]);
    const { req, conv } = agentRequest(from, `FORK-NEW-${tag}`);
    const said = userTexts(conv);
    const own = said.slice(0, -1);
    assert.ok(
      own.some((t) => t.includes(one)),
      `${agent}'s fork request holds turn one as its own earlier message`,
    );
    assert.ok(
      own.some((t) => t.includes(two)),
      `${agent}'s fork request holds turn two as its own earlier message`,
    );
    assert.not.ok(bodyContains(req, BRIEF_BEGIN), 'no baton brief');
    assert.not.match(said.at(-1)!, new RegExp(`${one}|${two}`), 'the new message alone');
    const after = await cursorOf(nat.id, agent);
    assert.ok(after.cursor, 'the fork has a session of its own');
    assert.is.not(after.cursor!.agentSession, S, 'a NEW native session');
    assert.is(after.cursor!.fork, undefined);
    // The fork's next turn continues that new session: the source's turns and the fork's own.
    from = home.fake.requests().length;
    await chat(['--conversation', nat.id, `Fork again: FORK-AGAIN-${tag}.`]);
    const again = agentRequest(from, `FORK-AGAIN-${tag}`);
    const againOwn = userTexts(again.conv).slice(0, -1);
    assert.ok(againOwn.some((t) => t.includes(one)) && againOwn.some((t) => t.includes(`FORK-NEW-${tag}`)), `${agent}'s fork goes on in its own session`);
    assert.not.ok(bodyContains(again.req, BRIEF_BEGIN), 'still no brief');
    assert.is((await cursorOf(nat.id, agent)).cursor!.agentSession, after.cursor!.agentSession);

    // The source's own session is as it was: resuming it does not see the fork's message.
    from = home.fake.requests().length;
    await chat(['--conversation', id, `Source again: FORK-BACK-${tag}.`]);
    const back = agentRequest(from, `FORK-BACK-${tag}`);
    assert.not.ok(bodyContains(back.req, `FORK-NEW-${tag}`), "the source's session does not hold the fork's turn");
    assert.ok(
      userTexts(back.conv)
        .slice(0, -1)
        .some((t) => t.includes(two)),
      "the source's session went on",
    );
    assert.is((await cursorOf(id, agent)).cursor!.agentSession, S, 'the source still runs its own session');

    const rep = await fork([id, '--at', String(endOfFirstTurn)]);
    assert.is(rep.mode, 'replay');
    assert.match(rep.replayReason!, /is not where the conversation ends/);
    from = home.fake.requests().length;
    await chat(['--conversation', rep.id, `Replay turn: FORK-REPLAY-${tag}.`]);
    const first = agentRequest(from, `FORK-REPLAY-${tag}`);
    const texts = userTexts(first.conv);
    assert.is(texts.length, 1, `a fresh ${agent} session: one message, the brief and the new message`);
    assert.ok(texts[0]!.includes(BRIEF_BEGIN), 'the brief');
    assert.ok(texts[0]!.includes(one), 'turn one');
    assert.not.ok(bodyContains(first.req, two), 'nothing of turn two');
  });
}

s('claude: a worktree fork at the last turn is native too, its session carried into the worktree', async () => {
  initRepo(home.menv.cwd, { env: home.menv.env, files: { 'notes.txt': 'v0\n' }, message: 'init' });
  const { id, one, two, session: S, lastSeq } = await twoTurns('claude', 'WT');

  const wt = await fork([id, '--at', String(lastSeq), '--worktree', '--name', 'native']);
  assert.is(wt.mode, 'native', wt.replayReason);
  assert.equal(wt.nativeSession, { harness: 'claude', agentSession: S });
  const configDir = join(home.menv.home, '.claude');
  assert.ok(existsSync(join(projectDir(configDir, wt.worktree!.cwd), `${S}.jsonl`)), "the session log is carried into the worktree's project dir");
  assert.ok(existsSync(join(projectDir(configDir, home.menv.cwd), `${S}.jsonl`)), 'and stays where it was');

  const from = home.fake.requests().length;
  await chat(['--conversation', wt.id, 'In the worktree: FORK-NEW-WT.']);
  const { req, conv } = agentRequest(from, 'FORK-NEW-WT');
  const own = userTexts(conv).slice(0, -1);
  assert.ok(own.some((t) => t.includes(one)) && own.some((t) => t.includes(two)), "both turns, as claude's own messages");
  assert.not.ok(bodyContains(req, BRIEF_BEGIN), 'no baton brief');
  assert.ok(bodyContains(req, wt.worktree!.cwd), 'claude runs in the worktree');
  const after = await cursorOf(wt.id, 'claude');
  assert.is.not(after.cursor!.agentSession, S, 'a NEW native session');
});

s.run();
