// The baton server (src/server) and its clients (src/client), with real processes in real
// PTYs and a plain shell in the tab: the first `baton` starts a server in a session of its
// own and draws its view; C-b d, a SIGHUP or a kill -9 of the client leaves the shell (and
// what it runs) going, and `baton attach` shows it again; two clients share the view at the
// smaller size, and a read-only one neither types nor resizes (smaller than the view, it keeps
// its own tab bar and status line rows, the pane cropped); `baton ls` lists the tabs and
// `baton kill-server` ends them; a stale socket is replaced; a socket directory open to
// others or of another user is refused, as is a client of another protocol version; the
// server listens on its 0600 Unix socket only. Two clients writing from the one compose bar
// (the ACP fixture agent in the tab, running cat): each message is recorded with the client
// that pressed Enter, in the order they were sent.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createConnection } from 'node:net';
import { join } from 'node:path';
import { alive, openFiles, readStat } from '../../src/proc/index.js';
import { decodeJson, encodeJson, FRAME, FrameReader, type Refusal } from '../../src/server/protocol.js';
import { formatStatusLine } from '../../src/tui/tab-bar.js';
import { fixtureDecl } from '../helpers/acp-fixture.js';
import { builtBaton, endServers, openPlainShell, serverPids, startBatonTui, type BatonTui } from '../helpers/baton-tui.js';
import { TestTerminal } from '../helpers/term.js';
import { until } from '../helpers/wait.js';

const CLI = builtBaton();
let b: BatonTui | undefined;
const extra: TestTerminal[] = [];

const s = suite('baton server');
s.after.each(async () => {
  for (const t of extra.splice(0)) await t.kill();
  await b?.cleanup();
  b = undefined;
});

/** The environment baton runs with in this test (its HOME, XDG dirs and socket dir). */
function envOf(tui: BatonTui): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(tui.env)) if (v !== undefined) env[k] = v;
  return env;
}

/** `baton ARGS` run to its end, in the test's environment. */
function baton(tui: BatonTui, args: string[], extraEnv: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: tui.work, env: { ...envOf(tui), ...extraEnv }, encoding: 'utf8', timeout: 30_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** Another client in a PTY of its own. */
function client(tui: BatonTui, args: string[], size = { cols: 100, rows: 30 }, env: Record<string, string> = {}): TestTerminal {
  const t = new TestTerminal([process.execPath, CLI, ...args], { ...size, cwd: tui.work, env: { ...envOf(tui), ...env } });
  extra.push(t);
  return t;
}

/** The pid the shell in the first tab runs a background sleep under, read from its screen. */
async function backgroundSleep(t: TestTerminal): Promise<number> {
  t.type('sleep 300 & echo bg=$!\r');
  const screen = await t.waitFor(/^bg=\d+$/m);
  return Number(/^bg=(\d+)$/m.exec(screen)![1]);
}

s('the first baton starts a server in its own session; C-b d detaches, the shell keeps running, baton attach shows it again', async () => {
  b = startBatonTui();
  await openPlainShell(b);
  const [server] = serverPids(b.runtime);
  assert.ok(server, 'a server runs');
  const st = readStat(server!)!;
  assert.is(st.session, server, 'in a session of its own');
  assert.is(st.pgrp, server, 'and a process group of its own');
  assert.is.not(readStat(b.t.pid)!.session, st.session, "not the terminal's session");
  const child = await backgroundSleep(b.t);
  b.t.type('echo before-detach\r');
  b.t.press('C-b', 'd');
  assert.is(await b.t.exited, 0);
  await b.t.waitFor(/\[detached from baton server default; the tabs keep running: baton attach\]/, 5000);
  assert.ok(alive(child), "the shell's child keeps running");
  const ls = baton(b, ['ls']);
  assert.is(ls.code, 0, ls.err);
  assert.match(ls.out, /^1: sh \(shell\) running {2}\S+\/work {2}\(active\)$/m);
  assert.match(ls.out, /^server default \(pid \d+\): 1 tab, detached$/m);

  const again = client(b, ['attach']);
  await again.waitFor(/^before-detach$/m, 15_000, 'the reattached screen holds what was there');
  again.type('echo after-attach\r');
  await again.waitFor(/^after-attach$/m);
});

s('a SIGHUP and a kill -9 of the client end only the client: the tab, its shell and its children keep running', async () => {
  b = startBatonTui();
  await openPlainShell(b);
  const child = await backgroundSleep(b.t);
  process.kill(b.t.pid, 'SIGHUP');
  await b.t.exited;
  await new Promise((r) => setTimeout(r, 300));
  assert.ok(alive(child), "alive after the client's hangup");
  const second = client(b, ['attach']);
  await second.waitFor(/^bg=\d+$/m, 15_000, 'the tab, shown again');
  second.type('echo still-here\r');
  await second.waitFor(/^still-here$/m);
  process.kill(second.pid, 'SIGKILL');
  await second.exited;
  assert.ok(alive(child), 'alive after a kill -9 of the client');
  assert.ok(serverPids(b.runtime).length === 1, 'the server runs on');
  const third = client(b, ['attach']);
  await third.waitFor(/^still-here$/m, 15_000);
});

s('two clients share the view at the smaller size; either types; a read-only one neither types nor resizes', async () => {
  b = startBatonTui({ cols: 100, rows: 30 });
  await openPlainShell(b);
  const small = client(b, ['attach'], { cols: 80, rows: 24 });
  await small.waitFor(/^\$/m, 15_000);
  small.type('stty size\r');
  // The smaller client's pane area: 24 rows less the tab bar, compose bar and status line.
  await b.t.waitFor(/^21 80$/m, 15_000, 'the view drawn at the smaller size, on both');
  await small.waitFor(/^21 80$/m);
  b.t.type('echo from-the-first\r');
  await small.waitFor(/^from-the-first$/m, 15_000, "the first client's keys, seen by the second");
  const watcher = client(b, ['attach', '-r'], { cols: 60, rows: 15 });
  await watcher.waitFor(/from-the-first/, 15_000, 'the read-only client sees the view');
  const ls = baton(b, ['ls']);
  assert.match(ls.out, /^server default \(pid \d+\): 1 tab, 3 clients attached$/m, 'ls counts every client, the read-only one too');
  watcher.type('echo typed-read-only\r');
  await new Promise((r) => setTimeout(r, 500));
  small.type('stty size\r');
  await small.waitFor((scr) => (scr.match(/^21 80$/gm) ?? []).length === 2, 15_000, 'the size unchanged by the read-only client');
  assert.not.match(small.screenText(), /typed-read-only/, 'nothing the read-only client typed arrived');
  small.press('C-b', 'd');
  assert.is(await small.exited, 0);
  b.t.type('stty size\r');
  await b.t.waitFor(/^27 100$/m, 15_000, 'the larger size again once the smaller client left');
});

s('a read-only client smaller than the view shows the tab bar and status line at its own size, the pane cropped; a larger one shows the view', async () => {
  b = startBatonTui({ cols: 100, rows: 30 });
  await openPlainShell(b);
  // A line longer than the read-only client is wide (the view has room for it on one row).
  b.t.type(`echo "$(printf '%070d' 7)TA""IL"\r`);
  await b.t.waitFor(/^0{69}7TAIL$/m);
  const watcher = client(b, ['attach', '-r'], { cols: 60, rows: 15 });
  const view = b.t.rows().map((r) => r.slice(0, 60).trimEnd());
  await watcher.waitFor((scr) => scr.split('\n')[0] === view[0], 15_000, "the view's tab bar on the first row");
  await watcher.waitFor((scr) => /read-only/.test(scr.split('\n')[14]!), 15_000, 'the status line, on the last row, says why the view is cropped');
  assert.match(watcher.row(14), /cropped to 60x15.*another client sets the size/);
  // (Rows come in the frames that changed them: each is waited for, not read at once.)
  await watcher.waitFor((scr) => scr.split('\n')[13] === view[28], 15_000, 'the compose row above it');
  await watcher.waitFor(
    (scr) =>
      JSON.stringify(
        scr
          .split('\n')
          .slice(1, 13)
          .map((r) => r.trimEnd()),
      ) === JSON.stringify(view.slice(1, 13)),
    15_000,
    "the pane's top-left part between them",
  );
  assert.equal(watcher.rows().slice(1, 13), view.slice(1, 13), "the pane's top-left part between them");
  assert.ok(watcher.rows().includes('0'.repeat(60)), 'the long line cut at the right edge');
  assert.not.match(watcher.screenText(), /TAIL/, 'and not wrapped onto the next row');
  // Laid out for 60 columns, as a 60-column baton draws it: hints dropped whole, not cut.
  const status = formatStatusLine('C-b', 60).trimEnd();
  assert.match(status, /C-b q quit$/);
  await watcher.waitFor((scr) => scr.split('\n')[14] === status, 15_000, 'the status line itself, at its width, once the note has been read');

  // Larger than the view: the view as it is, in the top-left corner, with no note.
  watcher.resize(120, 40);
  await watcher.waitFor((scr) => scr.split('\n')[29] === b!.t.row(29) && /TAIL$/m.test(scr), 15_000, 'the whole view, its status line on its own row');
  assert.is(watcher.row(0), b.t.row(0));
  b.t.type('stty size\r');
  await b.t.waitFor(/^27 100$/m, 15_000, 'the view keeps the size of the client that may resize it');
});

s("baton kill-server ends the server and the tab's programs; socket and lock are gone; the clients are told", async () => {
  b = startBatonTui();
  await openPlainShell(b);
  const child = await backgroundSleep(b.t);
  const [server] = serverPids(b.runtime);
  const k = baton(b, ['kill-server']);
  assert.is(k.code, 0, k.err);
  assert.match(k.err, new RegExp(`server default \\(pid ${server}\\) is ending`));
  assert.is(await b.t.exited, 0);
  await b.t.waitFor(/\[the baton server ended: baton kill-server\]/, 5000);
  await until(() => !alive(server!), 'the server gone');
  await until(() => !alive(child), "the shell's child gone");
  assert.not.ok(existsSync(join(b.runtime, 'baton', 'default.sock')));
  assert.not.ok(existsSync(join(b.runtime, 'baton', 'default.lock')));
  const ls = baton(b, ['ls']);
  assert.is(ls.code, 12, 'no server: exit 12');
  assert.match(ls.err, /no baton server is running/);
  assert.match(ls.err, /hint: run `baton` to start one/);
  assert.is(baton(b, ['attach']).code, 2, 'attach needs a terminal first of all');
});

s('a socket left by a server killed with SIGKILL is noticed and replaced by the next baton', async () => {
  b = startBatonTui();
  await openPlainShell(b);
  const [server] = serverPids(b.runtime);
  process.kill(server!, 'SIGKILL');
  await b.t.exited;
  await b.t.waitFor(/\[lost the baton server default/, 5000);
  assert.ok(existsSync(join(b.runtime, 'baton', 'default.sock')), "the dead server's socket is still there");
  const next = client(b, [b.work]);
  await next.waitFor('Plain shell', 20_000, 'a new server answers');
  const [replacement] = serverPids(b.runtime);
  assert.ok(replacement && replacement !== server, 'another server');
  assert.is(statSync(join(b.runtime, 'baton', 'default.sock')).mode & 0o777, 0o600);
});

s("the socket directory must be this user's and closed to others: otherwise exit 5 naming it, and no server starts", async () => {
  b = startBatonTui();
  await b.t.kill();
  const dir = join(b.runtime, 'baton');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o755);
  let r = baton(b, ['ls']);
  assert.is(r.code, 5, r.err);
  assert.match(r.err, new RegExp(`${dir} is open to other users \\(mode 755\\)`));
  const t = client(b, [b.work]);
  assert.is(await t.exited, 5);
  await t.waitFor(/open to other users/, 5000);
  if (process.getuid?.() === 0) {
    chmodSync(dir, 0o700);
    chownSync(dir, 65534, 65534);
    r = baton(b, ['ls']);
    assert.is(r.code, 5);
    assert.match(r.err, /belongs to another user \(uid 65534\)/);
    chownSync(dir, 0, 0);
  }
  assert.equal(serverPids(b.runtime), []);
});

s('a client of another protocol version is refused with what to do; the server keeps its tabs', async () => {
  b = startBatonTui();
  await openPlainShell(b);
  const refusal = await new Promise<Refusal>((resolve, reject) => {
    const sock = createConnection(join(b!.runtime, 'baton', 'default.sock'));
    const reader = new FrameReader();
    sock.on('data', (d: Buffer) => {
      for (const f of reader.push(d)) if (f.type === FRAME.refused) resolve(decodeJson<Refusal>(f));
    });
    sock.on('error', reject);
    sock.write(encodeJson(FRAME.hello, { protocol: 999, baton: '9.9.9', user: { name: 't', device: 'd' }, request: { kind: 'ls' }, cols: 80, rows: 24 }));
  });
  assert.match(refusal.message, /cannot talk to the client \(9\.9\.9, protocol 999\)/);
  assert.match(refusal.hint ?? '', /baton kill-server/);
  assert.is(refusal.code, 5);
  b.t.type('echo still-served\r');
  await b.t.waitFor(/^still-served$/m);
});

s('baton attach -t with a tab that is not there is refused, naming it and the tabs there; -t with a number or title shows that tab', async () => {
  b = startBatonTui();
  await openPlainShell(b);
  b.t.type('echo first-tab\r');
  await b.t.waitFor(/^first-tab$/m);
  for (const target of ['9', 'nosuch', '0']) {
    const bad = client(b, ['attach', '-t', target]);
    await bad.waitFor(new RegExp(`no tab "${target}" in this baton server; its tabs: 1:sh`), 15_000, `-t ${target}: the target and the tabs named`);
    // (The hint is its own line, which may reach the screen a moment after the first.)
    await bad.waitFor(/hint: .*baton ls/, 15_000, `-t ${target}: the hint`);
    assert.is(await bad.exited, 2, `-t ${target}: bad input`);
  }
  assert.match(baton(b, ['ls']).out, /: 1 tab, 1 client attached$/m, 'the refused clients never attached');
  b.t.type('echo still-first\r');
  await b.t.waitFor(/^still-first$/m, 15_000, 'the attached client goes on');
  for (const target of ['1', 'sh']) {
    const good = client(b, ['attach', '-t', target]);
    await good.waitFor(/^still-first$/m, 15_000, `-t ${target} shows the tab`);
    good.press('C-b', 'd');
    assert.is(await good.exited, 0);
  }
});

s('the server listens on its Unix socket only: no TCP or UDP socket among its open files', async () => {
  b = startBatonTui();
  await openPlainShell(b);
  const [server] = serverPids(b.runtime);
  const inodes = (openFiles(server!) ?? []).map((f) => /^socket:\[(\d+)\]$/.exec(f.target)?.[1]).filter((x): x is string => !!x);
  assert.ok(inodes.length > 0);
  const table = (f: string) => {
    try {
      return readFileSync(f, 'utf8');
    } catch {
      return '';
    }
  };
  const inet = ['/proc/net/tcp', '/proc/net/tcp6', '/proc/net/udp', '/proc/net/udp6'].map(table).join('\n');
  for (const ino of inodes) assert.not.ok(new RegExp(`\\s${ino}\\s`).test(inet), `socket ${ino} is an internet socket`);
  assert.ok(
    inodes.some((ino) => new RegExp(`\\s${ino}\\s.*default\\.sock`).test(table('/proc/net/unix'))),
    'the listening Unix socket',
  );
});

s('two clients write from the one compose bar: each message is recorded with the client that pressed Enter, in the order sent', async () => {
  // The fixture agent as a drop-in whose tab program is cat: what is sent is recorded as typed.
  const decl = { ...fixtureDecl({ name: 'echoagent', title: 'Echo agent' }), tui: { command: '/bin/sh', args: ['-c', 'echo AGENT-READY; exec cat'] } };
  b = startBatonTui({
    plugins: { 'echo.mjs': `export default (kit) => kit.acpDriver(${JSON.stringify(decl)});\n` },
    env: { BATON_USER: 'ana', BATON_DEVICE: 'laptop' },
  });
  await b.t.waitFor(/│Echo agent/, 20_000, 'the agent picker');
  b.t.press('Enter');
  await b.t.waitFor(/AGENT-READY/, 20_000, 'the agent in its tab');
  const bo = client(b, ['attach'], { cols: 100, rows: 30 }, { BATON_USER: 'bo', BATON_DEVICE: 'desk' });
  await bo.waitFor(/AGENT-READY/, 15_000);
  const conversations = join(b.home, 'state', 'baton', 'conversations');
  const authors = () =>
    existsSync(conversations)
      ? readdirSync(conversations).flatMap((id) =>
          readFileSync(join(conversations, id, 'transcript.jsonl'), 'utf8')
            .split('\n')
            .filter((l) => l.includes('"user_message"'))
            .map((l) => JSON.parse(l) as { text: string; author: { name: string; device: string } })
            .map((e) => `${e.author.name}@${e.author.device}: ${e.text}`),
        )
      : [];
  b.t.press('C-b', 'm');
  b.t.type('one from ana');
  b.t.press('Enter');
  await until(() => authors().length === 1, 'the first message recorded', 15_000);
  // The draft is shared, as the view is: bo writes the next one, and the compose bar says so.
  bo.type('two from bo');
  await b.t.waitFor(/bo@desk › two from bo/, 10_000, 'the compose bar names who writes, on every client');
  bo.press('Enter');
  await until(() => authors().length === 2, 'the second message recorded', 15_000);
  b.t.type('three from ana');
  await bo.waitFor(/ana@laptop › three from ana/, 10_000);
  b.t.press('Enter');
  await until(() => authors().length === 3, 'the third message recorded', 15_000);
  assert.equal(authors(), ['ana@laptop: one from ana', 'bo@desk: two from bo', 'ana@laptop: three from ana']);
});

s.after(async () => {
  if (b) await endServers(b.runtime);
});

s.run();
