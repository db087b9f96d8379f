// What /proc says about a process, parsed (src/proc/stat.ts): the fields of a stat line
// counted from the LAST ')', since a command name may hold spaces and parentheses; zombies
// told apart; boot time and resident memory. Text fixtures captured on Linux 6.18, no
// process of our own.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { isZombie, parseBootTime, parseResidentKb, parseStat, startedAtMs, TICKS_PER_SECOND } from '../../src/proc/stat.js';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/proc/${name}`, import.meta.url), 'utf8');

const s = suite('proc stat');

s('a running process: pid, comm, state, parents, group, session, terminal, CPU and start time', () => {
  assert.equal(parseStat(fixture('stat-running.txt')), {
    pid: 11894,
    comm: 'python3',
    state: 'R',
    ppid: 11845,
    pgrp: 11845,
    session: 27634,
    tpgid: -1,
    utime: 3,
    stime: 1,
    startTicks: 466769,
  });
});

s('a command name holding ") S 1 1 (" does not shift the fields after it', () => {
  const st = parseStat(fixture('stat-comm-with-parens.txt'))!;
  assert.is(st.comm, 'a) S 1 1 (b');
  assert.is(st.state, 'S');
  assert.is(st.ppid, 11754);
  assert.is(st.pgrp, 11750);
  assert.is(st.session, 27634);
  assert.is(st.startTicks, 466488);
  // What splitting at the first ')' (as a helper once did) would have read as the session:
  const naive = fixture('stat-comm-with-parens.txt').split(') ')[1]!.split(' ');
  assert.is.not(Number(naive[3]), st.session);
});

s('a command name in UTF-8 with a space reads as written', () => {
  const st = parseStat(fixture('stat-comm-utf8.txt'))!;
  assert.is(st.comm, 'tür ü');
  assert.is(st.pgrp, 11750);
  assert.is(st.startTicks, 466509);
});

s('a command name whose bytes are not UTF-8 still leaves the fields intact', () => {
  const raw = Buffer.concat([Buffer.from('42 ('), Buffer.from([0xe2, 0x29, 0xff]), Buffer.from(fixture('stat-running.txt').slice('11894 (python3'.length))]);
  const st = parseStat(raw.toString('utf8'))!;
  assert.is(st.pid, 42);
  assert.is(st.comm, '\uFFFD)\uFFFD');
  assert.is(st.pgrp, 11845);
});

s('a zombie is told apart; a live process is not one', () => {
  assert.ok(isZombie(parseStat(fixture('stat-zombie.txt'))!));
  assert.not.ok(isZombie(parseStat(fixture('stat-running.txt'))!));
  assert.not.ok(isZombie(parseStat(fixture('stat-comm-with-parens.txt'))!));
});

s('a session leader on a terminal: its own group and session, the terminal foreground group', () => {
  const st = parseStat(fixture('stat-tty-session-leader.txt'))!;
  assert.is(st.pgrp, 12076);
  assert.is(st.session, 12076);
  assert.is(st.tpgid, 12076);
});

s('what is not a stat line is undefined, not a record of NaNs', () => {
  assert.is(parseStat(''), undefined);
  assert.is(parseStat('not a stat line'), undefined);
  assert.is(parseStat('12 (cut short) S 1 1'), undefined);
  assert.is(parseStat('x (sh) S 1 1 1 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 5 0 0'), undefined);
});

s('boot time from /proc/stat, and a start time in ms from it', () => {
  const boot = parseBootTime(fixture('proc-stat.txt'))!;
  assert.is(boot, 1796086332 * 1000);
  assert.is(parseBootTime('cpu 1 2 3\n'), undefined);
  const st = parseStat(fixture('stat-running.txt'))!;
  assert.is(startedAtMs(st, boot), boot + (466769 / TICKS_PER_SECOND) * 1000);
});

s('resident memory from /proc/<pid>/status', () => {
  assert.is(parseResidentKb(fixture('status.txt')), 1756);
  assert.is(parseResidentKb('Name:\tkthreadd\nState:\tS (sleeping)\n'), undefined, 'a kernel thread has no VmRSS');
});

s.run();
