// A driver's ingest on captured session logs (log-fixtures.ts) written into a temp dir the
// way the CLI writes them, for drivers whose logs are one JSONL file per session in a dir per
// project (claude, qwen): the named session's log, made after `since`, is followed as its
// lines land, one cut in the middle, while another run's new log and an older one are not
// read; without a name nothing is followed; a resumed session gives only what is added later.
// And how such a driver finds a session's log among the projects' dirs.
// It must never write outside the dir it is given.
import * as assert from 'uvu/assert';
import { appendFileSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DriverDefinition, TranscriptEvent } from '../../src/plugins/api.js';
import { fixtureLines, restamp } from './log-fixtures.js';
import { until } from './wait.js';

export interface LogPlace {
  driver: DriverDefinition;
  /** Whose captures (test/fixtures/<cli>). */
  cli: string;
  cwd: string;
  env: Record<string, string>;
  /** Where the CLI keeps the cwd's session logs under env. */
  logs: string;
}

const later = () => new Date(Date.now() + 60_000).toISOString();

/**
 * The log of the session the launch named, created after the ingest started (the CLI writes
 * it at the first message), is followed line by line as it is written: the headless capture
 * lands in two appends, the first ending `cut.at` characters into line `cut.line`. Another
 * run's log created in the same directory first (a second tab) gives nothing, and neither
 * does the TUI capture, there before `since`. The session is said once its log is there.
 */
export async function followsOwnLog(p: LogPlace, cut: { line: number; at: number }): Promise<void> {
  mkdirSync(p.logs, { recursive: true });
  const old = join(p.logs, 'old-session.jsonl');
  writeFileSync(old, `${fixtureLines(p.cli, 'tui-session.jsonl').join('\n')}\n`);
  const born = statSync(old);
  const since = new Date(Math.max(born.birthtimeMs, born.mtimeMs) + 100);
  const events: TranscriptEvent[] = [];
  const own = 'b7d6a4c2-0e1f-4a5b-9c8d-7e6f5a4b3c2d';
  const ing = await p.driver.ingest!({ cwd: p.cwd, env: p.env, since, agentSession: own, onEvent: (ev) => events.push(ev) });
  await until(() => Date.now() > since.getTime() + 5, 'the clock past since', 1_000);
  try {
    const at = later();
    // The other tab's session starts first, in the same directory.
    writeFileSync(
      join(p.logs, 'a1b2c3d4-0000-4000-8000-000000000001.jsonl'),
      `${fixtureLines(p.cli, 'tui-session.jsonl')
        .map((l) => restamp(l, at))
        .join('\n')}\n`,
    );
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(events, [], "nothing from another run's log, and no session before its own log is there");
    const lines = fixtureLines(p.cli, 'headless-session.jsonl').map((l) => restamp(l, at));
    const log = join(p.logs, `${own}.jsonl`);
    const [head, tail] = [lines[cut.line]!.slice(0, cut.at), lines[cut.line]!.slice(cut.at)];
    appendFileSync(log, `${lines.slice(0, cut.line).join('\n')}\n${head}`);
    await until(() => events.some((ev) => ev.type === 'user_text'), 'the first prompt', 10_000);
    assert.is(ing.agentSession, own);
    assert.not.ok(events.some((ev) => ev.type === 'turn_end'));
    appendFileSync(log, `${tail}\n${lines.slice(cut.line + 1).join('\n')}\n`);
    await until(() => events.filter((ev) => ev.type === 'turn_end').length === 3, 'three turn ends', 10_000);
    assert.equal(events[0], { type: 'session', agentSession: own });
    assert.is(events.filter((ev) => ev.type === 'session').length, 1);
    assert.not.ok(JSON.stringify(events).includes('TUI-FIXTURE-TOKEN'), 'nothing from the other logs');
    assert.is(ing.skipped, 0);
  } finally {
    await ing.dispose();
  }
}

/** Without a session named, the ingest follows nothing (not even the one new log) and says why once. */
export async function followsNothingUnnamed(p: LogPlace): Promise<void> {
  mkdirSync(p.logs, { recursive: true });
  const events: TranscriptEvent[] = [];
  const said: string[] = [];
  const ing = await p.driver.ingest!({ cwd: p.cwd, env: p.env, since: new Date(), onEvent: (ev) => events.push(ev), onUnbound: (r) => said.push(r) });
  try {
    writeFileSync(
      join(p.logs, 'c0ffee00-0000-4000-8000-000000000002.jsonl'),
      `${fixtureLines(p.cli, 'headless-session.jsonl')
        .map((l) => restamp(l, later()))
        .join('\n')}\n`,
    );
    await new Promise((r) => setTimeout(r, 400));
    assert.equal(events, []);
    assert.is(said.length, 1);
    assert.match(said[0]!, /session id baton chose/);
    assert.is(ing.agentSession, undefined);
  } finally {
    await ing.dispose();
  }
}

/** Ingest of a named session: its records from before `since` give no events; a user and an assistant record appended later give one turn. */
export async function followsNamedSession(p: LogPlace): Promise<void> {
  mkdirSync(p.logs, { recursive: true });
  const log = join(p.logs, 'known.jsonl');
  const lines = fixtureLines(p.cli, 'tui-session.jsonl');
  writeFileSync(log, `${lines.join('\n')}\n`);
  const events: TranscriptEvent[] = [];
  const ing = await p.driver.ingest!({ cwd: p.cwd, env: p.env, since: new Date(), agentSession: 'known', onEvent: (ev) => events.push(ev) });
  try {
    const at = later();
    const again = lines
      .filter((l) => /"type":"(user|assistant)"/.test(l))
      .slice(0, 2)
      .map((l) => restamp(l, at));
    appendFileSync(log, `${again.join('\n')}\n`);
    await until(() => events.some((ev) => ev.type === 'turn_end'), 'the appended turn', 10_000);
    assert.equal(
      events.map((ev) => ev.type),
      ['session', 'user_text', 'agent_text', 'turn_end'],
    );
  } finally {
    await ing.dispose();
  }
}

/**
 * find(id) gives the log of a session in the cwd's project dir (mine) or another project's
 * (other); nothing for an unknown id or an id that is a path (pathId).
 */
export function assertFindsLog(find: (id: string) => string | undefined, mine: string, other: string, pathId: string): void {
  mkdirSync(mine, { recursive: true });
  mkdirSync(other, { recursive: true });
  writeFileSync(join(mine, 'a.jsonl'), '');
  writeFileSync(join(other, 'b.jsonl'), '');
  assert.is(find('a'), join(mine, 'a.jsonl'));
  assert.is(find('b'), join(other, 'b.jsonl'));
  assert.is(find('c'), undefined);
  assert.is(find(pathId), undefined);
}
