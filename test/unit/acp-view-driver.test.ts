// The driver of baton's view of an ACP agent (src/plugins/acp-view-driver.ts): its launch is
// `baton acp-view` for the base agent with a fresh view id, or the same id when a tab is
// reopened, or a new one continuing the agent session a headless turn left; a headless turn
// (`baton chat`) runs the base driver in the agent session that view last held; its status
// comes from the view's status line; its ingest follows the view's log from `since` on.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { HarnessDriver, HeadlessTurn, TranscriptEvent } from '../../src/plugins/api.js';
import { acpViewDriver, viewStatusFromScreen } from '../../src/plugins/acp-view-driver.js';
import { ViewLogWriter, viewLogPath } from '../../src/plugins/acp-view-log.js';
import { normalizeDriver } from '../../src/plugins/normalize-driver.js';

const s = suite('acp-view driver');
let home = '';
s.before.each(() => {
  home = mkdtempSync(join(tmpdir(), 'baton-view-driver-'));
});
s.after.each(() => rmSync(home, { recursive: true, force: true }));

const VIEW = 'view-00000000-1111-4222-8333-444444444444';
const turns: HeadlessTurn[] = [];
const base = normalizeDriver({
  name: 'agent',
  title: 'Agent',
  capabilities: { resume: true, tab: false },
  detect: async () => ({ installed: true, installHint: 'x' }),
  launch: () => ({ command: 'agent', args: [], cwd: '/' }),
  headless: async (turn) => {
    turns.push(turn);
    return { resumed: !!turn.resume, ...(turn.resume ? { agentSession: turn.resume } : {}) };
  },
  acp: () => ({ name: 'agent', command: 'agent', installHint: 'x' }),
}) as HarnessDriver;

const view = () => normalizeDriver(acpViewDriver(base, ['/plugins']));

s('named and titled after its agent, offered in tabs, no family of its own', () => {
  const d = view();
  assert.is(d.name, 'agent-view');
  assert.is(d.title, 'Agent (baton view)');
  assert.equal(d.families, []);
  assert.ok(d.capabilities.tab && d.capabilities.tabSession && d.capabilities.resume);
});

s('launch: a fresh view id, the same one when reopened, a new one continuing an agent session', async () => {
  const d = view();
  const env = { BATON_HOME: home };
  const fresh = await d.launch({ cwd: '/w', env, model: 'm1', account: 'work' });
  assert.match(fresh.session!, /^view-[0-9a-f-]{36}$/);
  const args = fresh.args.slice(1);
  assert.equal(args, ['--plugins', '/plugins', 'acp-view', '--agent', 'agent', '--view', fresh.session!, '--model', 'm1', '--account', 'work']);
  assert.is(fresh.command, process.execPath);
  const reopened = await d.launch({ cwd: '/w', env, resume: VIEW });
  assert.is(reopened.session, VIEW);
  assert.not.ok(reopened.args.includes('--agent-session'));
  const continued = await d.launch({ cwd: '/w', env, resume: 'ses_from_a_chat' });
  assert.not.equal(continued.session, 'ses_from_a_chat');
  assert.equal(continued.args.slice(-2), ['--agent-session', 'ses_from_a_chat']);
});

s("headless: the base driver's turn, in the agent session the view last held", async () => {
  const env = { BATON_HOME: home };
  const log = new ViewLogWriter(viewLogPath(env, VIEW));
  log.agentSession('ses_old');
  log.agentSession('ses_last');
  const turn = (resume?: string): HeadlessTurn => ({
    cwd: '/w',
    prompt: 'hi',
    env,
    yes: false,
    timeoutMs: 1000,
    onEvent: () => {},
    ...(resume ? { resume } : {}),
  });
  await view().headless!(turn(VIEW));
  await view().headless!(turn('ses_direct'));
  await view().headless!(turn());
  assert.equal(
    turns.map((t) => t.resume),
    ['ses_last', 'ses_direct', undefined],
  );
});

s("status from the view's status line: approval, working, idle, exited; nothing else read", () => {
  const screen = (status: string) => ['› you', '  hello', '', `─ Agent · ${status}`, '› '];
  assert.is(viewStatusFromScreen(screen('waiting for you: answer the card above')), 'approval');
  assert.is(viewStatusFromScreen(screen('working · Esc cancels')), 'working');
  assert.is(viewStatusFromScreen(screen('starting…')), 'working');
  assert.is(viewStatusFromScreen(screen('Enter sends')), 'idle');
  assert.is(viewStatusFromScreen(screen('the agent has ended')), 'exited');
  assert.is(viewStatusFromScreen(['Enter sends', 'waiting for you']), undefined, 'words outside the status line do not count');
});

s("ingest: the view's events from `since` on, the view id as the session", async () => {
  const env = { BATON_HOME: home };
  const log = new ViewLogWriter(viewLogPath(env, VIEW));
  log.event({ type: 'user_text', text: 'before the launch' });
  await new Promise((r) => setTimeout(r, 5));
  const since = new Date();
  const got: TranscriptEvent[] = [];
  const ingestor = await view().ingest!({ cwd: '/w', env, agentSession: VIEW, since, onEvent: (e) => got.push(e) });
  try {
    log.record({ t: 'notice', text: 'a view record is not an event' });
    log.event({ type: 'user_text', text: 'after' });
    log.event({ type: 'turn_end' });
    const deadline = Date.now() + 5000;
    while (got.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    assert.equal(got, [{ type: 'user_text', text: 'after' }, { type: 'turn_end' }]);
    assert.is(ingestor.agentSession, VIEW);
  } finally {
    await ingestor.dispose();
  }
});

s.run();
