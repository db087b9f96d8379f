// A driver's ingest on captured session logs (log-fixtures.ts) written into a temp dir the
// way the CLI writes them, for drivers whose logs are one JSONL file per session in a dir per
// project (claude, qwen): a log made after `since` is followed as its lines land, one cut
// in the middle; an older log is not read; a named session gives only what is added later.
// And how such a driver finds a session's log among the projects' dirs.
// It must never write outside the dir it is given.
import * as assert from 'uvu/assert';
import { appendFileSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DriverDefinition, TranscriptEvent } from '../../src/plugins/api.js';
import { fixtureLines, restamp } from './log-fixtures.js';
import { until } from './term.js';

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
 * The first log created after `since` is followed line by line as it is written: the
 * headless capture lands in two appends, the first ending `cut.at` characters into line
 * `cut.line`. The TUI capture, there before `since`, gives nothing.
 */
export async function followsNewLog(p: LogPlace, cut: { line: number; at: number }): Promise<void> {
  mkdirSync(p.logs, { recursive: true });
  const old = join(p.logs, 'old-session.jsonl');
  writeFileSync(old, `${fixtureLines(p.cli, 'tui-session.jsonl').join('\n')}\n`);
  // `since` clearly after the old log's birth, and the clock past it before the new one is made.
  const born = statSync(old);
  const since = new Date(Math.max(born.birthtimeMs, born.mtimeMs) + 100);
  const events: TranscriptEvent[] = [];
  const ing = await p.driver.ingest!({ cwd: p.cwd, env: p.env, since, onEvent: (ev) => events.push(ev) });
  await until(() => Date.now() > since.getTime() + 5, 'the clock past since', 1_000);
  try {
    const at = later();
    const lines = fixtureLines(p.cli, 'headless-session.jsonl').map((l) => restamp(l, at));
    const log = join(p.logs, 'new-session.jsonl');
    const [head, tail] = [lines[cut.line]!.slice(0, cut.at), lines[cut.line]!.slice(cut.at)];
    appendFileSync(log, `${lines.slice(0, cut.line).join('\n')}\n${head}`);
    await until(() => events.some((ev) => ev.type === 'user_text'), 'the first prompt', 10_000);
    assert.is(ing.agentSession, 'new-session');
    assert.not.ok(events.some((ev) => ev.type === 'turn_end'));
    appendFileSync(log, `${tail}\n${lines.slice(cut.line + 1).join('\n')}\n`);
    await until(() => events.filter((ev) => ev.type === 'turn_end').length === 3, 'three turn ends', 10_000);
    assert.equal(events[0], { type: 'session', agentSession: 'new-session' });
    assert.not.ok(JSON.stringify(events).includes('TUI-FIXTURE-TOKEN'), 'nothing from the log that was there before');
    assert.is(ing.skipped, 0);
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
    const again = lines.filter((l) => /"type":"(user|assistant)"/.test(l)).slice(0, 2).map((l) => restamp(l, at));
    appendFileSync(log, `${again.join('\n')}\n`);
    await until(() => events.some((ev) => ev.type === 'turn_end'), 'the appended turn', 10_000);
    assert.equal(events.map((ev) => ev.type), ['session', 'user_text', 'agent_text', 'turn_end']);
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
