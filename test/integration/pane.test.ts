// Pane against real programs in a real PTY and a real emulator.

import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Pane } from '../../src/tui/pane.js';
import { createTerminal } from '../../src/tui/xterm.js';
import { alive, readStat } from '../../src/proc/index.js';
import { until } from '../helpers/wait.js';

const s = suite('pane');
const env = { PATH: process.env.PATH, LANG: 'C.UTF-8', HOME: process.env.HOME };

function sh(script: string, opts: { cols?: number; rows?: number; scrollback?: number } = {}): Pane {
  return new Pane({
    command: '/bin/sh',
    args: ['-c', script],
    env: {},
    baseEnv: env,
    cwd: '/',
    cols: opts.cols ?? 40,
    rows: opts.rows ?? 10,
    scrollback: opts.scrollback,
  });
}

const screen = (p: Pane) => Array.from({ length: p.rows }, (_, y) => p.rowText(y)).join('\n');

s('the program runs in a PTY with TERM=xterm-256color and its output lands on the screen', async () => {
  const p = sh('test -t 1 && echo "tty $TERM"; sleep 30');
  try {
    await until(() => screen(p).includes('tty xterm-256color'), 'output');
  } finally {
    await p.dispose();
  }
});

// Before: a pane inherited the outer TMUX (so programs used tmux's passthrough and clipboard
// escapes, which reach baton's emulator, not tmux) and got no COLORTERM (Gemini CLI warned
// that true colour was not supported; CLIs chose their own 256-colour fallbacks).
s('a pane says what its terminal is: COLORTERM=truecolor whatever the outer one says, and no TMUX or TMUX_PANE', async () => {
  for (const outer of [{ TMUX: '/tmp/tmux-1000/default,4242,0', TMUX_PANE: '%3' }, { COLORTERM: '24bit' }, {}]) {
    const p = new Pane({
      command: '/bin/sh',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell's ${VAR-default}, not a template
      args: ['-c', 'echo "env [$COLORTERM] [${TMUX-none}] [${TMUX_PANE-none}]"; sleep 30'],
      env: {},
      baseEnv: { ...env, ...outer },
      cwd: '/',
      cols: 60,
      rows: 5,
    });
    try {
      await until(() => screen(p).includes('env ['), 'output');
      assert.match(screen(p), 'env [truecolor] [none] [none]', JSON.stringify(outer));
    } finally {
      await p.dispose();
    }
  }
});

s('changed rows are told to every listener, each keeping its own account', async () => {
  const p = sh('printf "a\\n\\n\\nchanged"; sleep 30');
  // Two viewers (two clients of one pane): both hear every range.
  const seen = [
    { start: Infinity, end: -1 },
    { start: Infinity, end: -1 },
  ];
  const subs = seen.map((acc) =>
    p.onChange((c) => {
      if (!c.rows) return;
      acc.start = Math.min(acc.start, c.rows.start);
      acc.end = Math.max(acc.end, c.rows.end);
    }),
  );
  let parsed = 0;
  p.onOutput(() => parsed++);
  try {
    await until(() => screen(p).includes('changed'), 'output');
    for (const acc of seen) {
      assert.is(acc.start, 0);
      assert.ok(acc.end >= 3);
    }
    assert.ok(parsed > 0, 'parsed output is told');
    // One viewer leaving does not stop the other.
    subs[0]!.dispose();
    seen[1]!.end = -1;
    const before = seen[0]!.end;
    p.resize(30, 10);
    assert.is(seen[0]!.end, before);
    assert.is(seen[1]!.end, 9);
  } finally {
    await p.dispose();
  }
});

s('wide characters take two columns (Unicode 11: emoji too)', async () => {
  const p = sh('printf "a😀b日c"; sleep 30');
  try {
    await until(() => screen(p).includes('c'), 'output');
    const line = p.term.buffer.active.getLine(0)!;
    assert.is(line.getCell(1)!.getChars(), '😀');
    assert.is(line.getCell(1)!.getWidth(), 2);
    assert.is(line.getCell(3)!.getChars(), 'b');
    assert.is(line.getCell(4)!.getWidth(), 2);
    assert.is(line.getCell(6)!.getChars(), 'c');
  } finally {
    await p.dispose();
  }
});

s('resize reaches the program (stty size) and the emulator', async () => {
  const p = sh('trap "stty size" WINCH; stty size; while :; do sleep 0.05; done', { cols: 40, rows: 10 });
  try {
    await until(() => screen(p).includes('10 40'), 'first size');
    p.resize(100, 20);
    assert.is(p.cols, 100);
    assert.is(p.rows, 20);
    await until(() => screen(p).includes('20 100'), 'new size');
  } finally {
    await p.dispose();
  }
});

s('input is written as given; bracketed paste and focus events only when the program asked', async () => {
  const p = sh('stty raw -echo; printf "ready\\r\\n"; head -c 7 | od -An -c', { cols: 80 });
  try {
    await until(() => screen(p).includes('ready'), 'ready');
    p.write('\x1b[A');
    p.paste('x\ny');
    p.focus(true);
    p.write('Z');
    await until(() => /033\s+\[\s+A\s+x\s+\\r\s+y\s+Z/.test(screen(p)), 'od output');
    assert.not.match(screen(p), /2\s+0\s+0\s+~/);
    assert.not.match(screen(p), /033\s+\[\s+I/);
  } finally {
    await p.dispose();
  }
  const q = sh('printf "\\033[?2004h\\033[?1004h"; stty raw -echo; printf "ready\\r\\n"; head -c 17 | od -An -c', { cols: 80 });
  try {
    await until(() => screen(q).includes('ready'), 'ready');
    assert.ok(q.term.modes.bracketedPasteMode);
    q.paste('hi');
    q.focus(true);
    await until(() => /033\s+\[\s+2\s+0\s+0\s+~\s+h\s+i\s+033\s+\[\s+2\s+0\s+1\s+~\s+033\s+\[\s+I/.test(screen(q)), 'od output with markers');
  } finally {
    await q.dispose();
  }
});

s('cursor position, visibility and shape follow the program', async () => {
  const p = sh('printf "\\033[3;5H\\033[?25l\\033[6 q"; sleep 30');
  try {
    await until(() => !p.cursor().visible, 'cursor hidden');
    const c = p.cursor();
    assert.is(c.x, 4);
    assert.is(c.y, 2);
    assert.equal(c.shape, { style: 'bar', blink: false });
  } finally {
    await p.dispose();
  }
});

s('alternate screen in and out restores the normal screen', async () => {
  const p = sh('echo normal-text; printf "\\033[?1049h\\033[Halt-text"; sleep 0.3; printf "\\033[?1049l"; echo back; sleep 30');
  try {
    await until(() => screen(p).includes('alt-text'), 'alternate screen');
    assert.is(p.term.buffer.active.type, 'alternate');
    assert.not.match(screen(p), /normal-text/);
    await until(() => screen(p).includes('back'), 'normal screen back');
    assert.match(screen(p), /normal-text/);
  } finally {
    await p.dispose();
  }
});

s('scrollback is capped at the configured number of lines, numbered from the oldest kept', async () => {
  const p = sh('seq 1 500; sleep 30', { rows: 10, scrollback: 100 });
  try {
    await until(() => screen(p).includes('500'), 'all output');
    assert.is(p.endLine - p.firstLine, 110);
    assert.is(p.lineText(p.firstLine), '392');
    assert.is(p.lineText(p.endLine - 2), '500');
    assert.is(p.lineText(p.screenTop), '492');
  } finally {
    await p.dispose();
  }
});

s('old scrollback leaves the emulator for the compact history, text and colours intact', async () => {
  const p = sh('i=1; while [ $i -le 3000 ]; do printf "\\033[31mline\\033[0m %d 日本\\n" $i; i=$((i+1)); done; sleep 30', { rows: 10, scrollback: 2000 });
  try {
    await until(() => screen(p).includes('line 3000'), 'all output', 30_000);
    // The emulator keeps only a small window at full width.
    assert.ok(p.term.buffer.active.length <= 10 + 200, `emulator lines: ${p.term.buffer.active.length}`);
    assert.is(p.endLine - p.firstLine, 2010);
    assert.is(p.lineText(p.firstLine), 'line 992 日本');
    // Numbers are continuous across the history / emulator boundary.
    for (let n = p.firstLine; n < p.endLine - 1; n += 97) assert.is(p.lineText(n), `line ${n - p.firstLine + 992} 日本`);
    const row = Array.from({ length: 20 }, () => [0, ''] as [number, string]);
    p.paintLine(p.firstLine, row, 0, 20);
    assert.equal(
      row
        .slice(0, 12)
        .map((c) => c[1])
        .join('|'),
      'l|i|n|e| |9|9|2| |日||本',
    );
    assert.is((row[0]![0] >> 9) & 0x1ff, 1);
  } finally {
    await p.dispose();
  }
});

s('clearing the scrollback (ED 3, as `clear` does) clears the history too', async () => {
  const p = sh('seq 1 1000; printf "\\033[3J"; echo cleared; sleep 30', { rows: 10, scrollback: 2000 });
  try {
    await until(() => screen(p).includes('cleared'), 'output');
    // What is kept is what a terminal keeps: the screen, and the one line `cleared` pushed off
    // it since (in the emulator's scrollback, or in the history while a flood has the
    // emulator hold its screen only: xterm-shed.ts).
    assert.is(p.endLine - p.firstLine, p.rows + 1);
    assert.is(p.lineText(p.firstLine), '992');
    assert.ok(p.history.length <= 1);
  } finally {
    await p.dispose();
  }
});

s('a flood arrives complete and in order while the PTY is paused and resumed', async () => {
  const p = sh('seq 1 200000; echo done-flood; sleep 30', { rows: 5 });
  try {
    await until(() => screen(p).includes('done-flood'), 'end of flood', 60_000);
    assert.is(p.bytesParsed, p.bytesIn);
    const b = p.term.buffer.active;
    const last = Array.from({ length: b.length }, (_, i) => b.getLine(i)!.translateToString(true)).filter((l) => /^\d+$/.test(l));
    assert.equal(last.slice(-3), ['199998', '199999', '200000']);
  } finally {
    await p.dispose();
  }
});

// A flood is read ahead and its unseen lines may go to the history unparsed (read-ahead.ts,
// flood-lines.ts): what is kept must still be exactly what a terminal fed the same bytes keeps.
for (const drawn of [false, true])
  s(
    `after a flood the scrollback and screen are exactly what a bare emulator fed the same bytes keeps${drawn ? ' (the pane drawn: its PTY read during parses too)' : ''}`,
    async () => {
      const script = 'seq 1 60000; printf "\\033[32mgreen\\033[0m\\n"; seq 60001 90000 | sed "s/$/   /"; printf "%s\\n" a b; printf "end-flood"; sleep 30';
      const p = sh(script, { cols: 30, rows: 8, scrollback: 5000 });
      p.shown(drawn);
      try {
        await until(() => screen(p).includes('end-flood'), 'end of flood', 60_000);
        assert.is(p.bytesParsed, p.bytesIn);
        // The same bytes, as the PTY delivered them (LF as CR LF), fed to a bare emulator that keeps it all.
        const seq = (a: number, b: number, tail = '') => Array.from({ length: b - a + 1 }, (_, i) => `${a + i}${tail}\r\n`).join('');
        const bytes = `${seq(1, 60000)}\x1b[32mgreen\x1b[0m\r\n${seq(60001, 90000, '   ')}a\r\nb\r\nend-flood`;
        const bare = createTerminal(30, 8, 5000);
        await new Promise<void>((r) => bare.write(bytes, r));
        const b = bare.buffer.active;
        const want = Array.from({ length: b.length }, (_, i) => b.getLine(i)!.translateToString(true).replace(/\s+$/, ''));
        bare.dispose();
        const got = Array.from({ length: p.endLine - p.firstLine }, (_, i) => p.lineText(p.firstLine + i));
        assert.is(got.length, want.length);
        assert.equal(got, want);
        assert.is(p.lineText(p.screenTop), want[want.length - 8]);
      } finally {
        await p.dispose();
      }
    },
  );

s('terminal queries are answered (cursor position report)', async () => {
  const p = sh('stty -echo raw; printf "\\033[2;3H\\033[6n"; head -c 6 | od -An -c; sleep 30', { cols: 60 });
  try {
    await until(() => /033\s+\[\s+2\s+;\s+3\s+R/.test(screen(p)), 'the report');
  } finally {
    await p.dispose();
  }
});

s('dispose ends the session: children ignoring SIGHUP and background jobs in their own group too', async () => {
  // set -m: job control, so the second sleep runs in a process group of its own.
  const p = sh('trap "" HUP; sleep 300 & echo child=$!; set -m; sleep 301 & echo job=$!; wait');
  await until(() => /job=\d+/.test(screen(p)), 'pids');
  const child = Number(/child=(\d+)/.exec(screen(p))![1]);
  const job = Number(/job=(\d+)/.exec(screen(p))![1]);
  assert.is.not(readStat(job)!.pgrp, p.pid);
  assert.ok(alive(p.pid) && alive(child) && alive(job));
  await p.dispose(300);
  await until(() => !alive(p.pid) && !alive(child) && !alive(job), 'all gone');
  assert.ok(p.exited);
  p.write('ignored after dispose');
});

s("the program's OSC 52 clipboard requests and bells are handed to the app", async () => {
  const p = sh('printf "\\033]52;c;aGk=\\007\\007after"; sleep 30');
  let clip: string | undefined;
  let bells = 0;
  p.onClipboard((payload) => (clip = payload));
  p.onBell(() => bells++);
  try {
    await until(() => screen(p).includes('after'), 'output');
    assert.is(clip, 'c;aGk=');
    assert.is(bells, 1);
  } finally {
    await p.dispose();
  }
});

s('exit is reported with the code, to every listener', async () => {
  const p = sh('exit 7');
  const heard: number[] = [];
  p.onExit((x) => heard.push(x.exitCode));
  p.onExit((x) => heard.push(x.exitCode));
  const e = await p.waitExit();
  assert.is(e.exitCode, 7);
  assert.equal(heard, [7, 7]);
  assert.not.ok(p.hasForegroundJob());
  await p.dispose();
});

s('a shell with a command in the foreground has a foreground job', async () => {
  const p = new Pane({ command: '/bin/sh', args: ['-i'], env: { PS1: '$ ' }, baseEnv: env, cwd: '/', cols: 40, rows: 10 });
  try {
    await until(() => screen(p).includes('$'), 'prompt');
    assert.not.ok(p.hasForegroundJob());
    p.write('sleep 60\r');
    await until(() => p.hasForegroundJob(), 'sleep in the foreground');
    p.write('\x03');
    await until(() => !p.hasForegroundJob(), 'back to the shell');
  } finally {
    await p.dispose();
  }
});

s.run();
