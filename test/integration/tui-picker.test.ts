// The new-tab picker in the real TUI (a real PTY at 100x30): one picker at a time, however
// quickly the prefix commands come; drawn at once while an agent is still being detected
// (a drop-in whose detect() answers only when the test lets it), its version filled in
// when the answer comes; keys pressed while a picker's list is still filling keep what the
// user did (the selection stays on its row as rows come; Enter with no row to take waits).

import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addAccount } from '../../src/plugins/account-store.js';
import { openPlainShell, pickEntry, pickerEntries, pickerSelected, startBatonTui, type BatonTui } from '../helpers/baton-tui.js';

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

/** A drop-in agent `title` that is installed (version 1.0.0) and whose TUI is cat, after saying `<name>-READY`. */
const catAgent = (name: string, title: string): string => `
export default {
  name: '${name}',
  title: '${title}',
  detect: async () => ({ installed: true, version: '1.0.0', installHint: 'none' }),
  launch: ({ cwd }) => ({ command: '/bin/sh', args: ['-c', 'echo ${name}-READY; exec cat'], cwd }),
};
`;

// Before: the switch picker's selection started on its first row whatever agent the tab ran,
// unlike tmux's choosers, which start on the current window: Enter at once armed another agent.
s("the switch picker (prefix a) starts on the tab's own agent, marked current", async () => {
  const b = startBatonTui({ plugins: { 'agent-a.mjs': catAgent('agent-a', 'Agent A'), 'agent-b.mjs': catAgent('agent-b', 'Agent B') } });
  try {
    await pickEntry(b.t, 'Agent B');
    await b.t.waitFor(/agent-b-READY/, 30_000, 'Agent B in its tab');
    b.t.press('C-b', 'a');
    await b.t.waitFor(/┌─ Continue with /, 30_000, 'the switch picker');
    await b.t.waitFor(() => pickerSelected(b.t)?.startsWith('Agent B  ') === true, 10_000, 'Agent B selected');
    const entries = pickerEntries(b.t);
    assert.match(pickerSelected(b.t)!, /^Agent B  1\.0\.0 · current$/, 'marked current');
    assert.ok(
      entries.findIndex((e) => e.startsWith('Agent A  ')) < entries.findIndex((e) => e.startsWith('Agent B  ')),
      `not the first row: ${entries.join(' | ')}`,
    );
    b.t.press('Escape');
    await b.t.waitForGone(/┌─ Continue with /, 10_000);
  } finally {
    await b.cleanup();
  }
});

// Before: every row of the switch picker said the conversation goes on as text, the tab's own
// agent included (picking it switches nothing; a return to an agent that ran here resumes its
// own session: test/unit/switch-transaction.test.ts). The note now follows the selected row.
s('the switch picker says under its rows what picking the selected one does', async () => {
  const b = startBatonTui({ plugins: { 'agent-a.mjs': catAgent('agent-a', 'Agent A'), 'agent-b.mjs': catAgent('agent-b', 'Agent B') } });
  try {
    await pickEntry(b.t, 'Agent B');
    await b.t.waitFor(/agent-b-READY/, 30_000, 'Agent B in its tab');
    b.t.press('C-b', 'm');
    b.t.type('NOTE-CONTEXT');
    b.t.press('Enter');
    await b.t.waitFor(/NOTE-CONTEXT[^]*NOTE-CONTEXT/, 15_000, 'the message sent (cat says it back)');
    b.t.press('C-b', 'a');
    await b.t.waitFor(/┌─ Continue with /, 30_000, 'the switch picker');
    await b.t.waitFor(() => pickerSelected(b.t)?.startsWith('Agent B  ') === true, 10_000, 'Agent B selected');
    await b.t.waitFor(/Runs this conversation now\./, 10_000, "the tab's own agent: no switch");
    assert.not.match(b.t.screenText(), /continues as text/);
    b.t.press('Up');
    await b.t.waitFor(() => pickerSelected(b.t)?.startsWith('Agent A  ') === true, 10_000, 'Agent A selected');
    await b.t.waitFor(/Recent conversation continues as text/, 10_000, 'a fresh start: the conversation as text');
    assert.not.match(b.t.screenText(), /Runs this conversation now/);
    b.t.press('Escape');
    await b.t.waitForGone(/┌─ Continue with /, 10_000);
  } finally {
    await b.cleanup();
  }
});

/**
 * baton with a drop-in agent "Gated agent" whose detect() answers only once releaseDetect()
 * was called, and whose model list (model-a, model-b) only once releaseModels() was; its TUI
 * says the model it was started with.
 */
function withGatedAgent(): BatonTui & { releaseDetect(): void; releaseModels(): void } {
  const gateDir = mkdtempSync(join(tmpdir(), 'baton-gated-agent-'));
  const detectGate = join(gateDir, 'detect');
  const modelsGate = join(gateDir, 'models');
  const plugin = `
import { existsSync } from 'node:fs';
const until = async (file) => { while (!existsSync(file)) await new Promise((r) => setTimeout(r, 20)); };
export default {
  name: 'gated-agent',
  title: 'Gated agent',
  async detect() {
    await until(${JSON.stringify(detectGate)});
    return { installed: true, version: '2.0.0', installHint: 'none' };
  },
  async models() {
    await until(${JSON.stringify(modelsGate)});
    return { models: [{ id: 'model-a' }, { id: 'model-b' }], source: 'table', note: 'the test' };
  },
  launch: ({ cwd, model }) => ({ command: '/bin/sh', args: ['-c', 'echo "RUNS-$M"; exec cat'], env: { M: model ?? 'its-default' }, cwd }),
};
`;
  const b = startBatonTui({ plugins: { 'gated-agent.mjs': plugin } });
  return {
    ...b,
    releaseDetect: () => writeFileSync(detectGate, ''),
    releaseModels: () => writeFileSync(modelsGate, ''),
    async cleanup() {
      writeFileSync(detectGate, '');
      writeFileSync(modelsGate, '');
      await b.cleanup();
      rmSync(gateDir, { recursive: true, force: true });
    },
  };
}

s('the selection moved while an agent is still being detected stays on its row as the rows under that agent come', async () => {
  const b = withGatedAgent();
  try {
    // Every other agent answered (gone, or an install row): only the gated one is checking.
    const checking = () => pickerEntries(b.t).filter((e) => e.endsWith('checking…'));
    await b.t.waitFor(
      () => checking().length === 1 && checking()[0]!.startsWith('Gated agent') && pickerEntries(b.t).some((e) => e.startsWith('Plain shell')),
      30_000,
      'the picker, the agent being detected',
    );
    const shell = pickerEntries(b.t).findIndex((e) => e.startsWith('Plain shell'));
    for (let i = 0; i < shell; i++) b.t.press('Down');
    await b.t.waitFor(() => pickerSelected(b.t)?.startsWith('Plain shell') === true, 10_000, 'the plain shell selected');
    b.releaseDetect();
    // Its model row comes under it, above the selection.
    await b.t.waitFor(() => pickerEntries(b.t).some((e) => e.startsWith('Gated agent · other model…')), 30_000, 'the agent detected');
    assert.ok(pickerSelected(b.t)?.startsWith('Plain shell'), `the selection stayed: ${pickerEntries(b.t).join(' | ')}`);
    b.t.press('Enter');
    await b.t.waitFor(/^\$$/m, 15_000, 'the shell it was on');
  } finally {
    await b.cleanup();
  }
});

// Before: Enter pressed while the agent's model list was still being asked for found no row
// and closed the picker as a dismissal: nothing was chosen and nothing said.
s('Enter in the model picker before its list is here is refused, said, and the picker stays for the list', async () => {
  const b = withGatedAgent();
  try {
    b.releaseDetect();
    await pickEntry(b.t, 'Gated agent · other model…');
    await b.t.waitFor(/┌─ Model of Gated agent [^]*asking for its models…/, 10_000, 'the model picker, its list still coming');
    b.t.press('Down', 'Enter');
    await b.t.waitFor((scr) => scr.replace(/[│\s]+/g, ' ').includes('Nothing to take yet: the list is still coming.'), 10_000, 'the refusal said');
    assert.match(b.t.screenText(), /┌─ Model of Gated agent /, 'the picker stays');
    b.releaseModels();
    await b.t.waitFor(() => pickerEntries(b.t).some((e) => e.startsWith('model-b')), 30_000, 'the list filled');
    assert.not.match(b.t.screenText().replace(/[│\s]+/g, ' '), /Nothing to take yet/, 'the refusal goes with the list');
    await pickEntry(b.t, 'model-b');
    await b.t.waitFor(/RUNS-model-b/, 15_000, 'the agent started with the model chosen from the list');
  } finally {
    await b.cleanup();
  }
});

s.run();
