// real CLIs: qwen
// From nothing to a working agent inside baton's TUI (issue #14 item 5), in a real PTY: with
// only node and git on the PATH, the new-tab picker lists the five CLIs baton can install, each with
// the version it installs and what it needs, and says how; taking "Install Qwen Code" opens a
// tab that installs it from a local npm registry stand-in (Qwen Code packed from .cache/clis;
// no network needed) and then runs its own login (`qwen auth`'s menu) in that tab. After the
// login is left, a new tab's picker lists Qwen Code as installed, and the installed CLI
// answers a message through the fake LLM.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { FakeLlm } from '../fake-llm/server.js';
import { REPO_ROOT } from '../helpers/cli-env.js';
import type { MultiCliEnv } from '../helpers/multi-cli-env.js';
import { pickEntry, pickerEntries } from '../helpers/baton-tui.js';
import { startLocalRegistry, type LocalRegistry } from '../helpers/local-npm-registry.js';
import { endRealTui, serverLogTail, startRealBaton, startRealEnv, submitTyped } from '../helpers/real-tui.js';
import type { TestTerminal } from '../helpers/term.js';

const QWEN_PKG = '@qwen-code/qwen-code';
let fake: FakeLlm;
let menv: MultiCliEnv;
let registry: LocalRegistry;
let t: TestTerminal;

const s = suite('install an agent from the picker');
s.before(async () => {
  registry = await startLocalRegistry({ [QWEN_PKG]: join(REPO_ROOT, '.cache/clis/node_modules', QWEN_PKG) });
  ({ fake, menv } = await startRealEnv(['qwen']));
  // No agent CLI and no npm on the PATH: node, and git (which baton itself needs for a
  // conversation in a repository), each linked alone into a dir of their own.
  const tools = join(menv.dir, 'tools');
  mkdirSync(tools);
  symlinkSync(process.execPath, join(tools, 'node'));
  symlinkSync(execFileSync('which', ['git'], { encoding: 'utf8' }).trim(), join(tools, 'git'));
  t = startRealBaton(menv, { cols: 140, rows: 36, env: { PATH: tools, npm_config_registry: registry.url } });
});
s.after(async () => {
  await endRealTui([t], menv, fake);
  await registry.close();
});

s('the picker lists the CLIs baton can install; one installs in a tab, then its login runs there', async () => {
  await t.waitFor(/│Install Qwen Code  0\.15\.10 · needs[^]*│Plain shell/, 90_000, 'the picker with install rows');
  await t.waitFor(/Pick one to install it/, 30_000, 'the note saying how');
  const rows = pickerEntries(t).map((r) => r.split('  ')[0]);
  for (const title of ['Claude Code', 'Codex CLI', 'Gemini CLI', 'opencode', 'Qwen Code'])
    assert.ok(rows.includes(`Install ${title}`), `${title}: ${rows.join(' | ')}`);
  await pickEntry(t, 'Install Qwen Code');
  await t.waitFor(/Installing Qwen Code 0\.15\.10/, 60_000, 'the install progress in the tab');
  await t.waitFor(/installed Qwen Code 0\.15\.10/, 180_000, 'the install done');
  await t.waitFor(/Select authentication method/, 120_000, "qwen's own login in the tab");
  const data = join(menv.env.XDG_DATA_HOME!, 'baton/agents');
  assert.ok(existsSync(join(data, 'bin/qwen')), 'the command is linked in baton’s prefix');
  assert.ok(
    registry.served.some((p) => p.endsWith('.tgz')),
    'the tarball came from the stand-in',
  );
  // Leave the login: the tab's install command ends.
  t.press('C-c');
  await t.waitFor(/login ended with exit code/, 60_000, 'the login left');
});

s('a new tab now offers Qwen Code as installed; the installed CLI answers through the fake LLM', async () => {
  t.press('C-b', 'c');
  await t.waitFor(/│Qwen Code  0\.15\.10/, 60_000, 'the picker listing the installed agent');
  assert.not.ok(
    pickerEntries(t).some((r) => r.startsWith('Install Qwen Code')),
    'no install row for it any more',
  );
  await pickEntry(t, 'Qwen Code');
  await t.waitFor(/Type your message/, 120_000, 'qwen ready').catch((err: Error) => {
    throw new Error(`${err.message}\nserver log:\n${serverLogTail(join(menv.dir, 'baton-home'))}`);
  });
  t.type('Installed from the picker: PICKED-QWEN-8802');
  await submitTyped(t, fake, 'PICKED-QWEN-8802');
  await t.waitFor(/PICKED-QWEN-8802[^]*PICKED-QWEN-8802/, 60_000, 'the reply in the pane');
});

s.run();
