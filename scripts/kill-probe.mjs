#!/usr/bin/env node
// The kill -9 durability probe (issue #10's Show): N trials (default 100) of a `baton chat`
// turn against the fixture ACP agent (test/fixtures/acp-agent, declared as a drop-in), each
// SIGKILLed at a random moment of its turn — baton chat itself, or the agent's process
// group — then checked: the conversation loads (`transcript show` exits 0), no entry
// acknowledged before the kill is lost (an entry read back from the file just before the
// kill, every entry of an earlier turn, and the turn whose reply chat printed), nothing is
// duplicated (seqs strictly increasing, each trial's message recorded at most once), and no
// process baton started outlives it (its descendants, followed by pid; never by name).
// Ends with a clean turn on every conversation (the lock of a killed baton is taken over).
//
//   npx tsc -p tsconfig.json && node scripts/kill-probe.mjs [--trials N] [--seed S] [--convs C]
//
// Prints one line per failed check and a summary line; exits 1 if any check failed. It must
// never signal a process it did not see descend from a baton it started.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(new URL('..', import.meta.url).pathname);
const CLI = join(root, 'dist/src/cli.js');
const AGENT = join(root, 'test/fixtures/acp-agent/agent.mjs');
const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const TRIALS = arg('trials', 100);
const SEED = arg('seed', Date.now() % 100000);
const CONVS = arg('convs', 4);
if (!existsSync(CLI)) throw new Error(`${CLI} is missing: build first (npx tsc -p tsconfig.json)`);

// A small seeded generator (mulberry32), so a run can be repeated with --seed.
let s = SEED >>> 0;
const rand = () => {
  s = (s + 0x6d2b79f5) >>> 0;
  let t = s;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const home = mkdtempSync(join(tmpdir(), 'baton-kill-probe-'));
const cwd = join(home, 'work');
const plugins = join(home, 'plugins');
mkdirSync(cwd);
mkdirSync(plugins);
writeFileSync(
  join(plugins, 'fx.mjs'),
  `export default (kit) => kit.acpDriver(${JSON.stringify({
    name: 'fx',
    title: 'Fixture',
    command: process.execPath,
    args: [AGENT],
    versionArgs: [AGENT, '--version'],
    installHint: 'test/fixtures/acp-agent',
    env: { ACP_FIXTURE_HOME: join(home, 'fx-sessions') },
  })});\n`,
);
const env = { ...process.env, BATON_HOME: join(home, 'baton'), XDG_CONFIG_HOME: join(home, 'config'), XDG_RUNTIME_DIR: join(home, 'run') };
mkdirSync(env.XDG_RUNTIME_DIR, { mode: 0o700 });
const baton = (args) => spawnSync(process.execPath, [CLI, '--plugins', plugins, ...args], { cwd, env, encoding: 'utf8', timeout: 120_000 });

// The process table, by pid: parent, process group, start time (so a reused pid is not taken for ours).
function procTable() {
  const t = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      t.set(Number(name), { ppid: Number(f[1]), pgid: Number(f[2]), start: f[19], state: f[0] });
    } catch {
      // gone meanwhile
    }
  }
  return t;
}
/** Adds to `seen` every live descendant of `pid` (pid -> start time). */
function collectDescendants(pid, seen) {
  const t = procTable();
  const mine = new Set([pid, ...seen.keys()]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [p, i] of t)
      if (!mine.has(p) && mine.has(i.ppid)) {
        mine.add(p);
        seen.set(p, i.start);
        grew = true;
      }
  }
  return t;
}
const stillOurs = (pid, start) => {
  const i = procTable().get(pid);
  return i && i.start === start && i.state !== 'Z';
};

/** The transcript's complete lines, parsed (a torn last line is not acknowledged by anyone). */
function entriesOf(id) {
  const file = join(env.BATON_HOME, 'conversations', id, 'transcript.jsonl');
  const text = readFileSync(file, 'utf8');
  const lines = text
    .slice(0, text.lastIndexOf('\n') + 1)
    .split('\n')
    .filter(Boolean);
  return lines.map((l) => JSON.parse(l)).filter((e) => typeof e.seq === 'number');
}

const failures = [];
const fail = (trial, what) => {
  failures.push(`${trial}: ${what}`);
  console.log(`FAIL trial ${trial}: ${what}`);
};

// Conversations made by clean turns, and how long a clean turn takes here (the kill window).
const convs = [];
let turnMs = 0;
for (let i = 0; i < CONVS; i++) {
  const t0 = Date.now();
  const r = baton(['chat', '--new', '--agent', 'fx', `setup turn ${i}`]);
  // The first turn pays for cold caches; the window is that of a warm one.
  if (i > 0 || CONVS === 1) turnMs = Math.max(turnMs, Date.now() - t0);
  const id = /conversation (\S+)/.exec(r.stderr)?.[1];
  if (r.status !== 0 || !id) throw new Error(`a clean setup turn failed (exit ${r.status}): ${r.stderr}`);
  convs.push(id);
}
const windowMs = Math.round(turnMs * 1.2);
console.log(
  `kill-probe: ${TRIALS} trials, seed ${SEED}, ${CONVS} conversations, a clean turn ${turnMs} ms, kills at 0–${windowMs} ms into a turn; home ${home}`,
);

const acked = new Map(convs.map((id) => [id, entriesOf(id)]));
const stats = { readBack: 0, batonKilled: 0, groupKilled: 0, finishedFirst: 0, leftovers: 0, exits: {} };
for (let n = 1; n <= TRIALS; n++) {
  const id = convs[Math.floor(rand() * convs.length)];
  const msg = `trial ${n} message ${Math.floor(rand() * 1e9)}`;
  const killAt = Math.floor(rand() * windowMs);
  const target = rand() < 0.5 ? 'baton' : 'group';
  const child = spawn(process.execPath, [CLI, '--plugins', plugins, 'chat', '--conversation', id, msg], {
    cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  let code = 'running';
  const closed = new Promise((r) => child.on('close', (c, sig) => r((code = sig ?? c))));
  const seen = new Map();
  // The agent: baton's child running the fixture in a process group of its own (not its
  // --version probe, nor a git baton runs in its own group).
  const agentOf = (t) =>
    [...seen.keys()].find((p) => {
      const i = t.get(p);
      if (!i || i.ppid !== child.pid || i.pgid === child.pid || !stillOurs(p, seen.get(p))) return false;
      try {
        const argv = readFileSync(`/proc/${p}/cmdline`, 'utf8').split('\0');
        return argv.includes(AGENT) && !argv.includes('--version');
      } catch {
        return false;
      }
    });
  // A kill of the group comes at a random moment of the agent's life (from its start), one of baton at any moment.
  let t0 = Date.now();
  if (target === 'group') {
    while (code === 'running' && !agentOf(collectDescendants(child.pid, seen)) && Date.now() - t0 < 60_000) await sleep(15);
    t0 = Date.now();
  }
  const wait = target === 'group' ? Math.floor(killAt / 2) : killAt;
  while (code === 'running' && Date.now() - t0 < wait) {
    collectDescendants(child.pid, seen);
    await sleep(15);
  }
  let readBack = [];
  let outBefore = '';
  let did = 'none';
  if (code === 'running') {
    // Read back, then kill: what was on disk and what chat printed now count as acknowledged.
    const t = collectDescendants(child.pid, seen);
    readBack = entriesOf(id);
    outBefore = out;
    const agent = agentOf(t);
    stats.readBack += readBack.length - acked.get(id).length;
    if (target === 'group' && agent) {
      did = 'group';
      try {
        process.kill(-t.get(agent).pgid, 'SIGKILL');
      } catch {
        /* ended meanwhile */
      }
      stats.groupKilled++;
    } else {
      did = 'baton';
      try {
        process.kill(child.pid, 'SIGKILL');
      } catch {
        /* ended meanwhile */
      }
      stats.batonKilled++;
    }
  } else {
    stats.finishedFirst++;
    outBefore = out;
  }
  // A baton whose agent was killed must still end by itself.
  const ended = await Promise.race([closed.then(() => true), sleep(60_000).then(() => false)]);
  if (!ended) {
    fail(n, `baton chat did not exit within 60 s after its agent's group was killed (${did})`);
    process.kill(child.pid, 'SIGKILL');
    await closed;
  }
  stats.exits[`${did}:${code}`] = (stats.exits[`${did}:${code}`] ?? 0) + 1;
  // Nothing it started outlives it (10 s for orphans to notice their closed pipes).
  const deadline = Date.now() + 10_000;
  let left = [...seen].filter(([p, st]) => stillOurs(p, st));
  while (left.length && Date.now() < deadline) {
    await sleep(100);
    left = left.filter(([p, st]) => stillOurs(p, st));
  }
  if (left.length) {
    stats.leftovers += left.length;
    fail(
      n,
      `${left.length} process(es) left after ${did} kill: ${left.map(([p]) => `${p} ${readFileSync(`/proc/${p}/cmdline`, 'utf8').replace(/\0/g, ' ').slice(0, 80)}`).join('; ')}`,
    );
    for (const [p] of left)
      try {
        process.kill(p, 'SIGKILL');
      } catch {
        /* gone */
      }
  }
  // The conversation loads.
  const show = baton(['transcript', 'show', id]);
  if (show.status !== 0) fail(n, `transcript show ${id} exit ${show.status}: ${show.stderr.trim()}`);
  // Nothing acknowledged is lost, nothing duplicated.
  const after = entriesOf(id);
  const bySeq = new Map(after.map((e) => [e.seq, JSON.stringify(e)]));
  for (const e of [...acked.get(id), ...readBack]) {
    if (bySeq.get(e.seq) !== JSON.stringify(e))
      fail(n, `entry seq ${e.seq} (${e.kind}) acknowledged before the ${did} kill is ${bySeq.has(e.seq) ? 'changed' : 'lost'}`);
  }
  const mine = after.filter((e) => e.kind === 'user_message' && e.text === msg);
  if (mine.length > 1) fail(n, `the message is recorded ${mine.length} times`);
  if (outBefore.trim()) {
    // chat printed the reply, so the turn was over: its message and answer must be there.
    const reply = after
      .filter((e) => e.kind === 'agent_text' && e.seq > (mine[0]?.seq ?? Infinity))
      .map((e) => e.text)
      .join('');
    if (!mine.length || !reply.includes(msg)) fail(n, `chat printed its reply before the ${did} kill, but the turn is not in the transcript`);
  }
  for (let i = 1; i < after.length; i++) {
    if (!(after[i].seq > after[i - 1].seq)) fail(n, `seq ${after[i].seq} follows seq ${after[i - 1].seq}`);
  }
  const users = after.filter((e) => e.kind === 'user_message').map((e) => e.text);
  if (new Set(users).size !== users.length) fail(n, 'a user message is recorded twice');
  acked.set(id, after);
  if (n % 10 === 0) console.log(`  ${n}/${TRIALS} trials`);
}

// Every conversation still loads and takes a clean turn (no lock of a killed baton is left in the way).
let cleanOk = 0;
for (const id of convs) {
  const show = baton(['transcript', 'show', id]);
  const r = baton(['chat', '--conversation', id, 'after the trials']);
  if (show.status === 0 && r.status === 0 && r.stdout.includes('after the trials')) cleanOk++;
  else fail('final', `conversation ${id}: show exit ${show.status}, clean turn exit ${r.status}: ${r.stderr.trim()}`);
}
baton(['kill-server']);
const total = convs.reduce((a, id) => a + entriesOf(id).length, 0);
console.log(`exits by kill:code: ${JSON.stringify(stats.exits)}`);
console.log(
  `kill-probe summary: ${TRIALS} trials (seed ${SEED}): ${stats.batonKilled} SIGKILLs of baton chat, ${stats.groupKilled} of the agent's process group, ` +
    `${stats.finishedFirst} turns done before their kill; ${stats.readBack} entries of killed turns read back before their kill; ${failures.length} failed checks; ${stats.leftovers} processes left; ` +
    `${cleanOk}/${convs.length} conversations load and take a clean turn afterwards (${total} entries)`,
);
if (failures.length === 0) rmSync(home, { recursive: true, force: true });
process.exit(failures.length ? 1 : 0);
