// The new-tab picker in the real TUI (a real PTY at 100x30): one picker at a time, however
// quickly the prefix commands come; drawn at once while an agent is still being detected
// (a drop-in whose detect() answers only when the test lets it), its version filled in
// when the answer comes.

import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addAccount } from '../../src/plugins/account-store.js';
import { openPlainShell, pickEntry, pickerEntries, startBatonTui, type BatonTui } from '../helpers/baton-tui.js';

/**
 * baton with a drop-in agent "Slow agent" whose detect() answers (version 4.5.6) only once
 * release() was called, as a CLI that takes long to tell its version; its TUI is cat.
 */
function withSlowAgent(): BatonTui & { release(): void; asked(): boolean } {
  const gateDir = mkdtempSync(join(tmpdir(), 'baton-slow-agent-'));
  const gate = join(gateDir, 'release');
  const plugin = `
import { existsSync, writeFileSync } from 'node:fs';
const gate = ${JSON.stringify(gate)};
export default {
  name: 'slow-agent',
  title: 'Slow agent',
  async detect() {
    writeFileSync(gate + '.asked', '');
    while (!existsSync(gate)) await new Promise((r) => setTimeout(r, 20));
    return { installed: true, version: '4.5.6', installHint: 'none' };
  },
  launch: ({ cwd }) => ({ command: '/bin/sh', args: ['-c', 'echo SLOW-AGENT-READY; exec cat'], cwd }),
};
`;
  const b = startBatonTui({ plugins: { 'slow-agent.mjs': plugin } });
  return {
    ...b,
    release: () => writeFileSync(gate, ''),
    asked: () => existsSync(`${gate}.asked`),
    async cleanup() {
      // Released, so a detection still waiting ends with the test.
      writeFileSync(gate, '');
      await b.cleanup();
      rmSync(gateDir, { recursive: true, force: true });
    },
  };
}

const s = suite('tui picker');

// Before: each C-b c gathered its choices and then opened its own picker, so a second one
// pressed before the first was drawn stacked a second picker under it, which stayed once
// the first was answered and took every key meant for the new tab.
s('prefix c pressed twice before the picker is drawn opens one picker; the tab it opens gets the keys', async () => {
  const b = startBatonTui();
  try {
    await openPlainShell(b);
    // One read: the second C-b c arrives before the first picker can be drawn.
    b.t.type('\x02c\x02c');
    await pickEntry(b.t, 'Plain shell');
    await b.t.waitFor((scr) => /2:sh/.test(scr.split('\n')[0]!) && /^\$$/m.test(scr), 15_000, 'the second tab');
    b.t.type('echo typed-$((6*7))\r');
    const screen = await b.t.waitFor(/^typed-42$/m, 15_000, 'the command typed in the new tab');
    assert.not.match(screen, /New tab/, 'no picker left behind');
    assert.is(b.t.row(0).match(/\d:sh/g)?.length, 2, 'two tabs, not three');
  } finally {
    await b.cleanup();
  }
});

// Before: the start-up picker waited for every agent's detection (each CLI asked its
// version: 5-11 s behind a blank screen with the real CLIs).
s('the start-up picker is drawn while an agent is still being detected; its version fills in when the answer comes', async () => {
  const b = withSlowAgent();
  try {
    const screen = await b.t.waitFor(/Plain shell/, 30_000, 'the picker, drawn before the slow detection answered');
    assert.ok(b.asked(), 'the slow agent was being detected');
    assert.match(screen, /Slow agent  checking…/);
    b.release();
    await b.t.waitFor(/Slow agent  4\.5\.6[^]*Plain shell/, 30_000, 'its version in the picker');
    await pickEntry(b.t, 'Slow agent');
    await b.t.waitFor(/SLOW-AGENT-READY/, 30_000, 'the agent in its tab');
  } finally {
    await b.cleanup();
  }
});

// Before: C-b c typed while the start-up picker gathered its choices stacked a second
// picker, which stayed once the first was answered and swallowed the keys.
s('prefix c typed before the start-up picker is drawn: still one picker, and the tab it opens gets the keys', async () => {
  const b = withSlowAgent();
  try {
    // Typed before baton reads its terminal: read with its first input, before any picker.
    b.t.type('\x02c');
    // Its first frame is drawn after that first read; the detection is then under way.
    await b.t.waitFor((scr) => /C-b \? help/.test(scr.split('\n').at(-1)!) && b.asked(), 30_000, 'baton drawn, the agent being detected');
    b.release();
    await b.t.waitFor(/Slow agent  4\.5\.6[^]*Plain shell/, 30_000, 'its version in the picker');
    await pickEntry(b.t, 'Plain shell');
    await b.t.waitFor(/^\$$/m, 15_000, 'the shell');
    b.t.type('echo typed-$((6*7))\r');
    const screen = await b.t.waitFor(/^typed-42$/m, 15_000, 'the command typed in the new tab');
    assert.not.match(screen, /New tab/, 'no picker left behind');
  } finally {
    await b.cleanup();
  }
});

// Before: the new tab opened only once its agent's launch answered (opencode asks its own
// CLI for a session first: seconds), and what the user typed meanwhile went to the tab
// still shown: a message meant for the new agent reached the old one.
s('keys typed while a picked agent is still starting go to its new tab, not to the tab shown before', async () => {
  const plugin = `
export default {
  name: 'late-agent',
  title: 'Late agent',
  detect: async () => ({ installed: true, version: '1.0.0', installHint: 'none' }),
  async launch({ cwd }) {
    await new Promise((r) => setTimeout(r, 1500));
    return { command: '/bin/sh', args: ['-c', 'echo LATE-AGENT-READY; exec cat'], cwd };
  },
};
`;
  const b = startBatonTui({ plugins: { 'late-agent.mjs': plugin } });
  try {
    await b.t.waitFor(/│Late agent  1\.0\.0[^]*Plain shell/, 30_000, 'the start-up picker');
    await pickEntry(b.t, 'Plain shell');
    await b.t.waitFor(/^\$$/m, 15_000, 'the shell');
    b.t.press('C-b', 'c');
    await b.t.waitFor(/│Late agent  1\.0\.0/, 30_000, 'the picker listing the agent');
    await pickEntry(b.t, 'Late agent');
    // At once, as a person who has picked the agent types to it.
    b.t.type('meant-for-the-new-tab\r');
    const screen = await b.t.waitFor(/LATE-AGENT-READY[^]*meant-for-the-new-tab/, 30_000, 'the typed line in the new tab');
    assert.match(screen.split('\n')[0]!, /2:Late agent/);
    b.t.press('C-b', '1');
    const first = await b.t.waitFor((scr) => /^ ?1:sh/.test(scr.split('\n')[0]!) && /\$/.test(scr), 10_000, 'the shell tab again');
    assert.not.match(first, /meant-for-the-new-tab/, 'nothing of it reached the shell');
  } finally {
    await b.cleanup();
  }
});

// Before: with no agent CLI installed the picker offered a plain shell and nothing else,
// with no word on why or how to get one. Now it lists the CLIs baton can install, each with
// what it needs (taking one: test/real/tui-install.test.ts).
s('with no agent CLI on the PATH the picker says so and lists the CLIs baton can install', async () => {
  const b = startBatonTui({ cols: 100, rows: 24, env: { PATH: '/usr/bin:/bin' } });
  try {
    const screen = await b.t.waitFor(/Plain shell[^]*baton agents/, 30_000, 'the picker with its note');
    const flat = screen.replace(/[│\s]+/g, ' ');
    assert.match(flat, /No agent CLI found on your PATH\. Pick one to install it \(baton agents install NAME\), or see `baton agents`\./);
    const rows = pickerEntries(b.t);
    for (const title of ['Claude Code', 'Codex CLI', 'Gemini CLI', 'opencode', 'Qwen Code']) {
      assert.ok(
        rows.some((r) => r.startsWith(`Install ${title}  `) && r.includes('needs')),
        `${title}: ${rows.join(' | ')}`,
      );
    }
    await pickEntry(b.t, 'Plain shell');
    await b.t.waitFor(/^\$$/m, 15_000, 'the shell');
  } finally {
    await b.cleanup();
  }
});

s("an agent's accounts are rows of the picker; the one chosen is the account its tab runs under", async () => {
  const batonHome = mkdtempSync(join(tmpdir(), 'baton-picker-accounts-'));
  addAccount({ BATON_HOME: batonHome }, 'acct-agent', 'work');
  // A drop-in that isolates accounts (it only says which one it was given); its TUI is cat.
  const plugin = `
export default {
  name: 'acct-agent',
  title: 'Acct agent',
  capabilities: { accounts: true },
  async detect() {
    return { installed: true, version: '1.0.0', installHint: 'none' };
  },
  launch: ({ cwd, account }) => ({ command: '/bin/sh', args: ['-c', 'echo "RUNS-UNDER-$ACCT"; exec cat'], env: { ACCT: account ?? 'own' }, cwd }),
};
`;
  const b = startBatonTui({ plugins: { 'acct-agent.mjs': plugin }, env: { BATON_HOME: batonHome } });
  try {
    await b.t.waitFor(() => pickerEntries(b.t).some((e) => e.startsWith('Acct agent · account work')), 60_000, 'the account rows');
    assert.ok(
      pickerEntries(b.t).some((e) => e.startsWith("Acct agent · account default  the CLI's own configuration")),
      pickerEntries(b.t).join(' | '),
    );
    await pickEntry(b.t, 'Acct agent · account work');
    await b.t.waitFor(/RUNS-UNDER-work/, 15_000, 'the tab running under the work account');
    await b.t.waitFor(/message Acct agent \(account work\)/, 15_000, 'the compose bar naming the account');
  } finally {
    await b.cleanup();
    rmSync(batonHome, { recursive: true, force: true });
  }
});

s.run();
