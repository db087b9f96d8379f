// gemini's ingest bound by the session id the launch gave it: two tabs' chat logs in one
// project (gemini names a log by the minute it started and the id's first 8 characters),
// here even sharing those 8 characters. Each tab's ingest follows the
// log whose header names its own session, never the other; without a session named it
// follows nothing and says why. Captured records (test/fixtures/gemini) in a temp home.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Ingestor, TranscriptEvent } from '../../src/plugins/api.js';
import { ingestGemini } from '../../plugins/gemini/ingest.js';
import { geminiLaunch } from '../../plugins/gemini/launch.js';
import { fixtureLines, restamp } from '../helpers/log-fixtures.js';
import { until } from '../helpers/wait.js';

const FIXTURE_ID = '65a6d27e-eac7-48c2-a657-f47d4681550a';
const A = '7f3c9a10-1111-4aaa-8aaa-000000000001';
const A2 = '7f3c9a10-2222-4bbb-8bbb-000000000002';

let dir = '';
let cwd = '';
let chats = '';
const ings: Ingestor[] = [];

/** The captured chat log as session `id`'s, its token renamed `mark`, written after `since`. */
function chatLog(id: string, mark: string, minute = '17'): void {
  const at = new Date(Date.now() + 60_000).toISOString();
  const lines = fixtureLines('gemini', 'chat-session.jsonl').map((l) =>
    restamp(l, at)
      .replaceAll(FIXTURE_ID, id)
      .replaceAll('TOKEN-GEM', mark)
      .replace(/"startTime":"[^"]+"/, `"startTime":"${at}"`),
  );
  writeFileSync(join(chats, `session-2026-12-01T01-${minute}-${id.slice(0, 8)}.jsonl`), `${lines.join('\n')}\n`);
}

async function follow(agentSession?: string): Promise<{ events: TranscriptEvent[]; unbound: string[] }> {
  const events: TranscriptEvent[] = [];
  const unbound: string[] = [];
  const ing = await ingestGemini({
    cwd,
    env: { GEMINI_CLI_HOME: dir, HOME: dir },
    since: new Date(),
    ...(agentSession ? { agentSession } : {}),
    onEvent: (e) => events.push(e),
    onUnbound: (r) => unbound.push(r),
  });
  ings.push(ing);
  return { events, unbound };
}

const users = (events: TranscriptEvent[]) => JSON.stringify(events.filter((e) => e.type === 'user_text'));

const t = suite('gemini ingest bound by session id');
t.before.each(() => {
  dir = mkdtempSync(join(tmpdir(), 'baton-gemini-bind-'));
  cwd = join(dir, 'work');
  chats = join(dir, '.gemini', 'tmp', 'work', 'chats');
  mkdirSync(cwd);
  mkdirSync(chats, { recursive: true });
  writeFileSync(join(dir, '.gemini', 'projects.json'), JSON.stringify({ projects: { [cwd]: 'work' } }));
});
t.after.each(async () => {
  await Promise.all(ings.splice(0).map((i) => i.dispose()));
  rmSync(dir, { recursive: true, force: true });
});

t('launch: a fresh run gets a new --session-id each time, a resume keeps its own', () => {
  const one = geminiLaunch({ cwd, env: {} });
  const two = geminiLaunch({ cwd, env: {} });
  assert.equal(one.args, ['--session-id', one.session!]);
  assert.match(one.session!, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.is.not(one.session, two.session);
  const resumed = geminiLaunch({ cwd, env: {}, resume: A });
  assert.equal(resumed.args, ['--resume', A]);
  assert.is(resumed.session, A);
});

t('two tabs in one project, ids sharing their first 8 characters (the file names differ only by the minute): each follows its own', async () => {
  const tabA = await follow(A);
  const tabA2 = await follow(A2);
  chatLog(A2, 'MARK-A2', '17');
  chatLog(A, 'MARK-A', '18');
  await until(() => tabA.events.some((e) => e.type === 'user_text') && tabA2.events.some((e) => e.type === 'user_text'), 'both prompts', 10_000);
  assert.match(users(tabA.events), 'MARK-A-1');
  assert.not.match(users(tabA.events), 'MARK-A2');
  assert.match(users(tabA2.events), 'MARK-A2-1');
  assert.equal(
    tabA.events.filter((e) => e.type === 'session'),
    [{ type: 'session', agentSession: A }],
  );
});

t('without a session named: nothing followed, not even the one new log, and said why', async () => {
  const tab = await follow();
  chatLog(A, 'MARK-A');
  await new Promise((r) => setTimeout(r, 400));
  assert.equal(tab.events, []);
  assert.is(tab.unbound.length, 1);
  assert.match(tab.unbound[0]!, /session id baton chose/);
});

t.run();
