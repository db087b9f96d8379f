// The shared follower of per-session JSONL logs (src/plugins/session-log-follower.ts), on
// temp dirs with a trivial parser: a named session is followed from the moment its log
// appears, wherever the CLI files it, and another run's new log in the same directory gives
// nothing; the session is said once, when its log is there. Without a name (a drop-in that
// still relies on timing) the one new log is followed, and a second new one — another run's
// or this one's, nobody can tell — stops it and says so; two at the start are never followed.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Ingestor, TranscriptEvent } from '../../src/plugins/api.js';
import { followSessionLog, type LogParser, type SessionLogPlace } from '../../src/plugins/session-log-follower.js';
import { until } from '../helpers/wait.js';

const settle = () => new Promise((r) => setTimeout(r, 400));

/** Each record `{ said }` is one agent_text. */
class Parser implements LogParser {
  skipped = 0;
  parse(record: unknown): TranscriptEvent[] {
    const said = (record as { said?: unknown }).said;
    if (typeof said !== 'string') {
      this.skipped++;
      return [];
    }
    return [{ type: 'agent_text', text: said }];
  }
}

let dir = '';
let project = '';
let elsewhere = '';
const ings: Ingestor[] = [];

function place(): SessionLogPlace {
  return {
    dir: () => project,
    find: (id) => [join(project, `${id}.jsonl`), join(elsewhere, `${id}.jsonl`)].find((p) => existsSync(p)),
    newParser: () => new Parser(),
    recordTime: () => undefined,
  };
}

async function follow(agentSession?: string): Promise<{ events: TranscriptEvent[]; unbound: string[]; ing: Ingestor }> {
  const events: TranscriptEvent[] = [];
  const unbound: string[] = [];
  const ing = await followSessionLog(
    {
      cwd: dir,
      env: {},
      since: new Date(Date.now() - 10),
      ...(agentSession ? { agentSession } : {}),
      onEvent: (e) => events.push(e),
      onUnbound: (r) => unbound.push(r),
    },
    place(),
  );
  ings.push(ing);
  return { events, unbound, ing };
}

const line = (said: string) => `${JSON.stringify({ said })}\n`;

const s = suite('session-log-follower');
s.before.each(() => {
  dir = mkdtempSync(join(tmpdir(), 'baton-follower-'));
  project = join(dir, 'projects', 'p');
  elsewhere = join(dir, 'projects', 'q');
});
s.after.each(async () => {
  await Promise.all(ings.splice(0).map((i) => i.dispose()));
  rmSync(dir, { recursive: true, force: true });
});

s("a named session: nothing until its log appears, another run's new log ignored, then followed as it grows", async () => {
  const { events, unbound, ing } = await follow('mine');
  mkdirSync(project, { recursive: true });
  writeFileSync(join(project, 'theirs.jsonl'), line('NOT-MINE'));
  await settle();
  assert.equal(events, [], 'no session said before its log exists, nothing from the other log');
  assert.is(ing.agentSession, 'mine');
  writeFileSync(join(project, 'mine.jsonl'), line('one'));
  await until(() => events.length === 2, 'the first record');
  appendFileSync(join(project, 'mine.jsonl'), line('two'));
  await until(() => events.length === 3, 'the second record');
  assert.equal(events, [
    { type: 'session', agentSession: 'mine' },
    { type: 'agent_text', text: 'one' },
    { type: 'agent_text', text: 'two' },
  ]);
  assert.equal(unbound, []);
});

s("a named session filed under another project's dir is found there", async () => {
  const { events } = await follow('moved');
  mkdirSync(elsewhere, { recursive: true });
  writeFileSync(join(elsewhere, 'moved.jsonl'), line('here'));
  await until(() => events.length === 2, 'the record');
  assert.equal(events[1], { type: 'agent_text', text: 'here' });
});

s('unnamed (timing, for drop-ins): the one new log is followed; a second new one stops it and says why, once', async () => {
  mkdirSync(project, { recursive: true });
  const { events, unbound, ing } = await follow();
  writeFileSync(join(project, 'first.jsonl'), line('a'));
  await until(() => events.length === 2, 'the one new log');
  assert.is(ing.agentSession, 'first');
  writeFileSync(join(project, 'second.jsonl'), line('b'));
  await until(() => unbound.length === 1, 'the ambiguity said');
  appendFileSync(join(project, 'first.jsonl'), line('after'));
  appendFileSync(join(project, 'second.jsonl'), line('after'));
  await settle();
  assert.equal(
    events,
    [
      { type: 'session', agentSession: 'first' },
      { type: 'agent_text', text: 'a' },
    ],
    'nothing more from either',
  );
  assert.match(unbound[0]!, /2 sessions started in this directory/);
  assert.match(unbound[0]!, /cannot tell which one is this tab's/);
});

s('unnamed: two new logs already there at the start are never followed', async () => {
  mkdirSync(project, { recursive: true });
  // Made a moment before the follower looks (its `since` is 10 ms back): both are new.
  writeFileSync(join(project, 'x.jsonl'), line('x'));
  writeFileSync(join(project, 'y.jsonl'), line('y'));
  const { events, unbound } = await follow();
  await settle();
  assert.equal(events, []);
  assert.is(unbound.length, 1);
});

s.run();
