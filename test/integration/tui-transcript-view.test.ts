// The transcript view in the real TUI (baton open, a real PTY): the "Switched this
// conversation from A to B" divider is one row fitted to the width at 80 and at 120
// columns, and at a width that leaves its rule one cell. The conversation is made beforehand with `baton chat` (the ACP fixture agent under
// two drop-in names titled as real CLIs are) and reopened through baton's offer to restore
// the tabs of that directory.

import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../src/cli.js';
import { bufferIo } from '../../src/commands/io.js';
import { fixtureDecl } from '../helpers/acp-fixture.js';
import { startBatonTui } from '../helpers/baton-tui.js';

let dir = '';
let work = '';
let batonHome = '';
const plugins: Record<string, string> = {};

/** The fixture agent as drop-in `name` titled `title`; in a tab it runs cat. */
function dropIn(name: string, title: string): string {
  const decl = {
    ...fixtureDecl({ name, title, env: { ACP_FIXTURE_HOME: join(dir, name) } }),
    tui: { command: '/bin/sh', args: ['-c', 'echo AGENT-READY; exec cat'] },
  };
  return `export default (kit) => kit.acpDriver(${JSON.stringify(decl)});\n`;
}

const s = suite('tui transcript view');
s.before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'baton-tui-transcript-'));
  work = join(dir, 'work');
  batonHome = join(dir, 'baton');
  const pluginDir = join(dir, 'plugins');
  mkdirSync(work);
  mkdirSync(pluginDir);
  plugins['alpha.mjs'] = dropIn('alpha', 'Claude Code');
  plugins['beta.mjs'] = dropIn('beta', 'Codex CLI');
  for (const [f, src] of Object.entries(plugins)) writeFileSync(join(pluginDir, f), src);
  const chat = async (args: string[]) => {
    const io = bufferIo({ ...process.env, BATON_HOME: batonHome, XDG_CONFIG_HOME: join(dir, 'config') }, work);
    const code = await main(['--plugins', pluginDir, 'chat', '--json', ...args], io);
    assert.is(code, 0, io.stderr());
    return JSON.parse(io.stdout()) as { conversation: string };
  };
  const { conversation } = await chat(['--new', '--agent', 'alpha', 'first message']);
  await chat(['--conversation', conversation, '--agent', 'beta', 'second message']);
  // What baton remembers of the tabs it had open in `work`, so that opening it there offers the conversation back.
  mkdirSync(join(batonHome, 'tabs'), { recursive: true });
  const key = createHash('sha256').update(work).digest('hex').slice(0, 16);
  writeFileSync(join(batonHome, 'tabs', `${key}.json`), JSON.stringify({ cwd: work, tabs: [{ conversation, agent: 'beta' }] }));
});
s.after(() => rmSync(dir, { recursive: true, force: true }));

/** The divider's words and tail at 120 columns, without its rule: a later case fits the view to it. */
let head = '';
for (const cols of [80, 120, 0]) {
  // Before: the divider, with the brief's mode and size after it, was longer than the view:
  // it was cut mid-word at the view's edge.
  // 0: a view one cell wider than the divider's words (a rule of one cell). Before, blessed
  // wrapped that row at its last space (the row ends in the closing style tags, so it looked
  // longer than the view): the rule went to a row of its own and pushed the entries down.
  s(`at ${cols || 'its words + 1'} columns the switch divider is one row fitted to the view, its words whole`, async () => {
    if (cols === 0) assert.ok(head, 'the 120-column case measured the divider');
    const width = cols || [...head].length + 3;
    const b = startBatonTui({ cols: width, rows: 30, work, env: { BATON_HOME: batonHome }, plugins });
    try {
      await b.t.waitFor('Restore tabs', 30_000, 'the offer to restore the tab');
      b.t.type('y');
      await b.t.waitFor(/AGENT-READY/, 30_000, 'the agent in its tab');
      b.t.press('C-b', 't');
      await b.t.waitFor(/Transcript:[^]*second message/, 15_000, 'the transcript view');
      b.t.type('/');
      await b.t.waitFor(/Search the transcript/, 10_000);
      b.t.type('Switched\r');
      await b.t.waitForGone(/Search the transcript/, 10_000);
      const screen = await b.t.waitFor(/Switched this conversation/, 10_000, 'the divider');
      const rows = screen.split('\n');
      const at = rows.findIndex((r) => r.includes('Switched this conversation'));
      assert.ok(at >= 0, `a divider row:\n${screen}`);
      const inside = (r: string) => {
        const chars = [...r];
        const l = chars.indexOf('│');
        const rt = chars.lastIndexOf('│');
        return chars.slice(l + 1, rt).join('');
      };
      const row = inside(rows[at]!);
      assert.match(row, /Switched this conversation from Claude Code to Codex CLI/);
      assert.is([...row].length, width - 2, 'the divider spans the view between its borders');
      // Fitted: what follows the sentence is whole or left out, and a rule fills the row.
      assert.match(row, cols === 80 ? /── \[\d+\] ─+$/ : /── \[\d+\] fresh start with a brief, \d+ chars ─+$/, JSON.stringify(row));
      if (cols === 120) head = row.replace(/─+$/, '');
      // The row under it is the next entry, not the divider's tail.
      assert.match(inside(rows[at + 1]!), /^\[\d+\] /, `the next row starts an entry: ${JSON.stringify(rows[at + 1])}`);
    } finally {
      await b.cleanup();
    }
  });
}

s.run();
