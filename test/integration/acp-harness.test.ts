// The generic ACP harness against a real ACP agent (test/fixtures/acp-agent), loaded as a
// drop-in from a temporary config dir: streamed chunks coalesced, tool calls and results,
// baton's permission policy, client fs and terminals, session/load in a second process,
// session/fork where the agent offers it, and every failure with its exit code — leaving
// no process behind.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BatonError } from '../../src/errors.js';
import {
  ResumeFailedError,
  type HarnessDriver,
  type HeadlessResult,
  type HeadlessTurn,
  type IngestOptions,
  type TranscriptEvent,
} from '../../src/plugins/api.js';
import { acpDriver, runAcpTurn, type AcpAgentDecl } from '../../src/plugins/acp-harness.js';
import { followSessionLog, type LogParser } from '../../src/plugins/session-log-follower.js';
import { alive, groupAlive } from '../../src/proc/index.js';
import { loadRegistry, type Registry } from '../../src/plugins/registry.js';
import { Transcript } from '../../src/transcript/transcript.js';
import type { Entry } from '../../src/transcript/types.js';
import { fixtureDecl, writeFixtureDropIn, type FixtureDecl } from '../helpers/acp-fixture.js';

let root = '';
let work = '';
let agentHome = '';
let env: NodeJS.ProcessEnv = {};
let reg: Registry | undefined;

/** The fixture agent as a drop-in in a temporary $XDG_CONFIG_HOME, through the registry. */
async function fixture(decl: FixtureDecl = {}): Promise<HarnessDriver> {
  const name = decl.name ?? 'acp-fixture';
  writeFixtureDropIn(join(root, 'config', 'baton', 'plugins'), { ...decl, env: { ACP_FIXTURE_HOME: agentHome, ...decl.env } });
  await reg?.dispose();
  reg = await loadRegistry({ env, builtinDir: false });
  assert.equal(reg.problems, []);
  assert.is(reg.origin(name)!.kind, 'drop-in');
  return reg.get(name);
}

interface Ran {
  result: HeadlessResult;
  events: TranscriptEvent[];
  entries: Entry[];
}

/** One headless turn, its events applied to a real transcript as `baton chat` would. */
async function run(driver: HarnessDriver, prompt: string, opts: Partial<HeadlessTurn> = {}): Promise<Ran> {
  const events: TranscriptEvent[] = [];
  const tr = new Transcript({ id: 'c1' });
  tr.startSegment({ harness: driver.name, model: 'default', switchId: 'sw1' });
  tr.apply({ type: 'user_text', text: prompt });
  const result = await driver.headless!({
    env,
    cwd: work,
    prompt,
    yes: false,
    timeoutMs: 20_000,
    onEvent: (e) => {
      events.push(e);
      tr.apply(e);
    },
    ...opts,
  });
  tr.flush();
  return { result, events, entries: tr.entries.slice(2) as Entry[] };
}

async function failure(p: Promise<unknown>): Promise<BatonError> {
  try {
    await p;
  } catch (err) {
    if (!(err instanceof BatonError)) throw err;
    return err;
  }
  throw new Error('expected the turn to fail');
}

const kinds = (entries: Entry[]) => entries.map((e) => e.kind);

const t = suite('acp-harness');
t.before.each(() => {
  root = mkdtempSync(join(tmpdir(), 'baton-acp-'));
  work = join(root, 'work');
  agentHome = join(root, 'agent-home');
  mkdirSync(work);
  env = { ...process.env, XDG_CONFIG_HOME: join(root, 'config'), HOME: join(root, 'home') };
});
t.after.each(async () => {
  await reg?.dispose();
  reg = undefined;
  rmSync(root, { recursive: true, force: true });
});

t('a turn: streamed chunks become one entry per message, usage and cost end the turn', async () => {
  const d = await fixture();
  const { result, events, entries } = await run(d, 'hello there, agent');
  assert.is(result.resumed, false);
  assert.is(result.stopReason, 'end_turn');
  assert.ok(result.agentSession);
  assert.equal(events[0], { type: 'session', agentSession: result.agentSession });
  assert.ok(events.filter((e) => e.type === 'agent_text').length >= 3, 'the reply arrived in several chunks');
  assert.equal(kinds(entries), ['agent_session', 'reasoning', 'agent_text', 'turn_end']);
  assert.is((entries[2] as { text: string }).text, 'echo: hello there, agent');
  const end = entries[3] as Extract<Entry, { kind: 'turn_end' }>;
  assert.equal(end.usage, { inputTokens: 3, outputTokens: 4, reasoningTokens: 2 });
  assert.is(end.costUsd, 0.0015);
});

t('a tool call and its result carry both id and name; the input that came later is kept', async () => {
  const d = await fixture();
  const file = join(work, 'notes.txt');
  writeFileSync(file, 'line one\nline two\nline three\n');
  const { events, entries } = await run(d, `look [[read ${file} 2 1]]`);
  const call = events.find((e) => e.type === 'tool_call') as Extract<TranscriptEvent, { type: 'tool_call' }>;
  const res = events.find((e) => e.type === 'tool_result') as Extract<TranscriptEvent, { type: 'tool_result' }>;
  assert.is(call.toolName, 'read_file');
  assert.equal(call.input, { path: file, line: 2, limit: 1 });
  assert.is(res.toolCallId, call.toolCallId);
  assert.is(res.toolName, 'read_file');
  // Read through baton's client fs, which honours line/limit.
  assert.is(res.output, 'line two');
  assert.is(res.isError, false);
  assert.equal(kinds(entries), ['agent_session', 'reasoning', 'tool_call', 'tool_result', 'agent_text', 'turn_end']);
});

t('fs: false is honoured: the agent gets no client file system', async () => {
  const d = await fixture({ fs: false });
  const file = join(work, 'notes.txt');
  writeFileSync(file, 'a\nb\nc');
  const { events } = await run(d, `[[read ${file} 2 1]]`);
  const res = events.find((e) => e.type === 'tool_result') as Extract<TranscriptEvent, { type: 'tool_result' }>;
  // The fixture then reads the file itself, whole: baton's line/limit never applied.
  assert.is(res.output, 'a\nb\nc');
});

t('permission is denied by default, with a message saying how to allow it', async () => {
  const d = await fixture();
  const file = join(work, 'denied.txt');
  const { events, entries } = await run(d, `[[write ${file} should not exist]]`);
  assert.not.ok(existsSync(file));
  const approval = events.find((e) => e.type === 'approval') as Extract<TranscriptEvent, { type: 'approval' }>;
  assert.is(approval.decision, 'denied');
  assert.match(approval.detail!, '--yes');
  const res = events.find((e) => e.type === 'tool_result') as Extract<TranscriptEvent, { type: 'tool_result' }>;
  assert.is(res.isError, true);
  assert.is(res.toolCallId, approval.toolCallId);
  assert.equal(kinds(entries), ['agent_session', 'reasoning', 'tool_call', 'approval', 'tool_result', 'agent_text', 'turn_end']);
});

t('with yes, permission is granted and the file is written through the client fs', async () => {
  const d = await fixture();
  // A directory that does not exist: only baton's fs/write_text_file creates parents.
  const file = join(work, 'new', 'dir', 'made.txt');
  const { events } = await run(d, `[[write ${file} written through baton]]`, { yes: true });
  assert.is(readFileSync(file, 'utf8'), 'written through baton');
  const approval = events.find((e) => e.type === 'approval') as Extract<TranscriptEvent, { type: 'approval' }>;
  assert.is(approval.decision, 'allowed');
  const res = events.find((e) => e.type === 'tool_result') as Extract<TranscriptEvent, { type: 'tool_result' }>;
  assert.is(res.isError, false);
  assert.match(res.output, `wrote 21 bytes to ${file}`);
});

t("with yes, a write outside the turn's directory is refused by baton's client fs: nothing written", async () => {
  const d = await fixture();
  const outside = join(work, '..', 'outside-the-turn.txt');
  const err = await failure(run(d, `[[write ${outside} escaped]]`, { yes: true }));
  assert.match(err.message, 'outside the session');
  assert.not.ok(existsSync(outside));
});

t('terminals run real processes from argv; their output is the tool result', async () => {
  const d = await fixture();
  const { events } = await run(d, '[[shell node -p 6*7]]', { yes: true });
  const res = events.find((e) => e.type === 'tool_result') as Extract<TranscriptEvent, { type: 'tool_result' }>;
  assert.is(res.toolName, 'shell');
  assert.is(res.output.trim(), '42');
  assert.is(res.isError, false);
  const missing = await run(d, '[[shell baton-no-such-program-xyz]]', { yes: true });
  const r2 = missing.events.find((e) => e.type === 'tool_result') as Extract<TranscriptEvent, { type: 'tool_result' }>;
  assert.is(r2.isError, true);
  assert.match(r2.output, 'cannot run "baton-no-such-program-xyz": ENOENT');
});

t('session/load in a second process: its own history back, and the replay is not re-emitted', async () => {
  const d = await fixture();
  const first = await run(d, 'remember MARK-41');
  const second = await run(d, 'and now?', { resume: first.result.agentSession });
  assert.is(second.result.resumed, true);
  assert.is(second.result.agentSession, first.result.agentSession);
  const texts = second.entries.filter((e) => e.kind === 'agent_text').map((e) => (e as { text: string }).text);
  assert.equal(texts, ['echo: and now? (previous: remember MARK-41)']);
  assert.is((second.entries.find((e) => e.kind === 'turn_end') as { costUsd?: number }).costUsd, 0.0015, 'only this turn’s cost');
});

t('a session that cannot be loaded is a ResumeFailedError before any prompt is sent', async () => {
  const d = await fixture();
  const e = await failure(run(d, 'hi MARK-NEVER', { resume: 'no-such-session' }));
  assert.instance(e, ResumeFailedError);
  assert.is(e.exitCode, 4);
  assert.match(e.message, 'could not resume session no-such-session');
  // The agent never saw the prompt: no session file holds it.
  const stored = readdirSync(agentHome)
    .filter((f) => f.endsWith('.json'))
    .map((f) => readFileSync(join(agentHome, f), 'utf8'));
  assert.not.ok(stored.some((s) => s.includes('MARK-NEVER')));
});

const storedSession = (id: string) => JSON.parse(readFileSync(join(agentHome, `${id}.json`), 'utf8')) as { turns: { prompt: string }[] };

t('session/fork, where the agent offers it: a new session with the history, the source untouched', async () => {
  const d = await fixture({ fork: true });
  assert.is(await d.canFork!({ env, cwd: work }), true);
  const first = await run(d, 'remember FORK-MARK-1');
  const src = first.result.agentSession!;
  const forked = await run(d, 'forked turn', { resume: src, fork: true });
  assert.is(forked.result.resumed, true, 'the fork counts as honoured');
  assert.ok(forked.result.agentSession);
  assert.is.not(forked.result.agentSession, src, 'the turn ran in a new session');
  assert.equal(
    forked.events.filter((e) => e.type === 'session'),
    [{ type: 'session', agentSession: forked.result.agentSession }],
  );
  const texts = forked.entries.filter((e) => e.kind === 'agent_text').map((e) => (e as { text: string }).text);
  assert.equal(texts, ['echo: forked turn (previous: remember FORK-MARK-1)'], 'the new session holds the source history');
  assert.equal(
    storedSession(src).turns.map((x) => x.prompt),
    ['remember FORK-MARK-1'],
    'the source session is as it was',
  );
  // Continuing the source afterwards does not see the fork's turn.
  const again = await run(d, 'source again', { resume: src });
  assert.equal(
    again.entries.filter((e) => e.kind === 'agent_text').map((e) => (e as { text: string }).text),
    ['echo: source again (previous: remember FORK-MARK-1)'],
  );
});

t('an agent that does not offer session/fork: canFork is false, and a fork is a ResumeFailedError before any prompt', async () => {
  const d = await fixture();
  assert.is(d.capabilities.fork, true, 'the harness may fork; the agent decides');
  assert.is(await d.canFork!({ env, cwd: work }), false);
  const first = await run(d, 'remember NOFORK-1');
  const src = first.result.agentSession!;
  const e = await failure(run(d, 'hi MARK-NOFORK', { resume: src, fork: true }));
  assert.instance(e, ResumeFailedError);
  assert.match(e.message, 'does not offer session/fork');
  const stored = readdirSync(agentHome)
    .filter((f) => f.endsWith('.json'))
    .map((f) => readFileSync(join(agentHome, f), 'utf8'));
  assert.not.ok(
    stored.some((x) => x.includes('MARK-NOFORK')),
    'no session, the source included, got the prompt',
  );
});

t('forking a session the agent does not have is a ResumeFailedError; canFork of a missing agent is false', async () => {
  const d = await fixture({ fork: true });
  const e = await failure(run(d, 'hi', { resume: 'no-such-session', fork: true }));
  assert.instance(e, ResumeFailedError);
  assert.match(e.message, 'could not resume session no-such-session');
  const gone = await fixture({ fork: true, command: join(root, 'no-such-agent') });
  assert.is(await gone.canFork!({ env, cwd: work }), false);
});

t('sessionLog: the agent is ended only once its own log shows the turn, so a reply it saves late is kept; without it that write is lost', async () => {
  const logs = join(root, 'late-log');
  const decl = fixtureDecl({ env: { ACP_FIXTURE_HOME: agentHome, ACP_FIXTURE_LATE_LOG: logs } }) as unknown as AcpAgentDecl;
  // The fixture's log, read the way a driver's ingest would: the late reply ends the turn.
  const parser = (): LogParser => ({
    skipped: 0,
    parse: (r) => ((r as { type?: string }).type === 'reply' ? [{ type: 'turn_end' }] : []),
  });
  const sessionLog = (opts: IngestOptions) =>
    followSessionLog(opts, {
      dir: () => logs,
      find: (s) => (existsSync(join(logs, `${s}.jsonl`)) ? join(logs, `${s}.jsonl`) : undefined),
      newParser: parser,
      recordTime: (r) => Date.parse((r as { at: string }).at),
    });
  const logged = (session: string) =>
    readFileSync(join(logs, `${session}.jsonl`), 'utf8')
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { type: string }).type);
  const turn = async (prompt: string, opts: Parameters<typeof runAcpTurn>[2]) => {
    const events: TranscriptEvent[] = [];
    const result = await runAcpTurn(decl, { env, cwd: work, prompt, yes: false, timeoutMs: 20_000, onEvent: (e) => events.push(e) }, opts);
    return { session: result.agentSession!, events };
  };

  const lost = await turn('ended at once', {});
  assert.equal(logged(lost.session), ['prompt'], 'the agent, ended right after answering, never wrote its reply');
  const kept = await turn('ended once saved', { sessionLog });
  assert.equal(logged(kept.session), ['prompt', 'reply']);
  assert.is(kept.events.at(-1)!.type, 'turn_end');
  assert.not.ok(
    kept.events.some((e) => e.type === 'notice'),
    JSON.stringify(kept.events),
  );
});

t('timeout: exit 4, and the agent’s whole process group is gone', async () => {
  const d = await fixture();
  // Long enough for the agent to start and reach [[hang]] on a loaded 2-core machine.
  const e = await failure(run(d, '[[hang]]', { timeoutMs: 6000 }));
  assert.is(e.exitCode, 4);
  assert.match(e.message, 'did not finish the turn within 6 s');
  const pids = JSON.parse(readFileSync(join(agentHome, 'hang.json'), 'utf8')) as { agent: number; helper: number; pgid: number };
  assert.not.ok(groupAlive(pids.pgid), 'no process left in the agent’s group');
  assert.not.ok(alive(pids.helper), 'the helper that ignored SIGTERM is gone');
  assert.not.ok(alive(pids.agent));
});

t('a crash mid-turn: exit 4 naming the exit code', async () => {
  const d = await fixture();
  const e = await failure(run(d, '[[crash]]'));
  assert.is(e.exitCode, 4);
  assert.match(e.message, 'exited with code 3 during the turn');
});

t('login required: exit 4 with a hint from the agent’s authMethods', async () => {
  const d = await fixture({ env: { ACP_FIXTURE_LOGIN: 'required' } });
  const e = await failure(run(d, 'hi'));
  assert.is(e.exitCode, 4);
  assert.match(e.message, 'needs a login');
  assert.match(e.hint!, 'Fixture token: set ACP_FIXTURE_TOKEN in the environment');
});

t('not installed: exit 3 with the install command', async () => {
  const d = await fixture({ command: join(root, 'nowhere', 'agent') });
  assert.equal(await d.detect({ env }), { installed: false, installHint: fixtureDecl().installHint });
  const e = await failure(run(d, 'hi'));
  assert.is(e.exitCode, 3);
  assert.is(e.hint, fixtureDecl().installHint);
});

t('a working directory that does not exist is bad input, not a missing agent', async () => {
  const d = await fixture();
  const e = await failure(run(d, 'hi', { cwd: join(root, 'gone') }));
  assert.is(e.exitCode, 2);
  assert.match(e.message, 'does not exist');
});

t('abort: the turn is cancelled through session/cancel and reported as cancelled', async () => {
  const d = await fixture();
  const ac = new AbortController();
  const seen: TranscriptEvent[] = [];
  const r = await run(d, '[[slow]]', {
    signal: ac.signal,
    onEvent: (ev) => {
      seen.push(ev);
      if (ev.type === 'reasoning') ac.abort();
    },
  });
  assert.is(r.result.stopReason, 'cancelled');
  assert.ok(
    seen.some((e) => e.type === 'notice' && e.text === 'turn cancelled'),
    'the agent confirmed the cancel itself',
  );
});

t('abort of an agent that ends a cancelled turn by failing its prompt (Qwen Code 0.15): cancelled, not a failure, not "did not confirm"', async () => {
  const d = await fixture();
  const ac = new AbortController();
  const seen: TranscriptEvent[] = [];
  const started = Date.now();
  const r = await run(d, '[[slow fail]]', {
    signal: ac.signal,
    onEvent: (ev) => {
      seen.push(ev);
      if (ev.type === 'reasoning') ac.abort();
    },
  });
  assert.is(r.result.stopReason, 'cancelled');
  assert.equal(
    seen.filter((e) => e.type === 'notice'),
    [{ type: 'notice', text: 'turn cancelled' }],
  );
  assert.ok(Date.now() - started < 20_000);
});

t('an ACP agent without a terminal UI cannot open in a tab: bad input, pointing at baton chat', async () => {
  const d = acpDriver({ name: 'headless-only', command: 'x', installHint: 'y' });
  try {
    await d.launch({ env, cwd: work });
    assert.unreachable();
  } catch (err) {
    assert.instance(err, BatonError);
    assert.is((err as BatonError).exitCode, 2);
    assert.match((err as BatonError).hint!, 'baton chat --agent headless-only');
  }
  const withTui = acpDriver({ name: 'g', command: 'goose', args: ['acp'], installHint: 'y', tui: { command: 'goose', args: ['session'] } });
  assert.equal(await withTui.launch({ env, cwd: work, args: ['--debug'] }), { command: 'goose', args: ['session', '--debug'], env: {}, cwd: work });
});

t.run();
