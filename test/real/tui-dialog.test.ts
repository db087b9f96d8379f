// real CLIs: claude
// baton never types into a CLI's dialog (issue 9, item 4), in the real `baton` TUI with the
// real Claude Code against the fake LLM, through a real PTY, in a directory nobody trusted
// (the test home pre-seeds trust for its own work dir only). Claude Code shows its
// folder-trust dialog: the tab reads as needing the user, a compose-bar message is queued and
// not typed (its Enter answered "Yes, I trust this folder"), nothing reaches the model. Once
// the user answers the dialog in the pane, the queued message goes, once.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FakeLlm } from '../fake-llm/server.js';
import type { MultiCliEnv } from '../helpers/multi-cli-env.js';
import type { TestTerminal } from '../helpers/term.js';
import { pickEntry } from '../helpers/baton-tui.js';
import { endRealTui, gitInit, pressEscape, recordedUserMessages, startRealBaton, startRealEnv } from '../helpers/real-tui.js';

let fake: FakeLlm;
let menv: MultiCliEnv;
let t: TestTerminal;
let untrusted: string;

const MSG = 'hello from the compose bar MARK-T1';

/** Fails if `pred` stops holding within `ms` (what would happen at once if baton typed into the dialog). */
async function holds(pred: (screen: string) => boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    await new Promise<void>((r) => t.term.write('', r));
    assert.ok(pred(t.screenText()), `${what}; screen was:\n${t.screenText()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const TRUST_DIALOG = /Yes, I trust this folder/;

const s = suite('tui dialog with claude');
s.before(async () => {
  ({ fake, menv } = await startRealEnv(['claude'], false));
  // A directory the test home does not trust: Claude Code asks first.
  untrusted = join(menv.dir, 'untrusted');
  mkdirSync(untrusted);
  gitInit(untrusted);
  t = startRealBaton(menv, { cols: 100, rows: 30, dir: untrusted, env: { PWD: untrusted } });
});
s.after(() => endRealTui([t], menv, fake));

s(
  "claude's folder-trust dialog reads as needing the user; a compose-bar message is queued, not typed into it; answered in the pane, the message goes once",
  async () => {
    await t.waitFor(/│Claude Code  \d[^]*│Plain shell/, 90_000, 'the agent picker listing Claude Code');
    await pickEntry(t, 'Claude Code');
    await t.waitFor(TRUST_DIALOG, 90_000, "claude's folder-trust dialog");
    await t.waitFor(/1:Claude Code[^\n]*needs (approval|you)/, 30_000, 'the tab says it needs the user');

    t.press('C-b', 'm');
    t.type(MSG);
    t.press('Enter');
    await t.waitFor(/queued \(1\)/, 10_000, 'the message queued');
    // Typed, it would have gone at once (paste, then Enter within a second): the dialog stays, unanswered.
    await holds((scr) => TRUST_DIALOG.test(scr) && /queued \(1\)/.test(scr), 4000, 'the dialog is still up and the message still queued');
    assert.is(fake.requestsContaining('MARK-T1').length, 0, 'nothing reached the model');

    // The user answers the dialog in the pane ("Yes, I trust this folder" is selected).
    await pressEscape(t);
    t.press('Enter');
    await fake.waitForRequest((r) => r.reply?.kind === 'text' && r.reply.text.includes('MARK-T1'), 90_000, 'the model answering the queued message');
    await t.waitFor(/You said: hello from the compose bar MARK-T1/, 60_000, "claude's reply in the pane");
    await t.waitFor((scr) => /1:Claude Code[^\n]*idle/.test(scr) && !/queued \(\d+\)/.test(scr), 60_000, "claude idle, baton's queue empty");

    const turns = fake.requests().filter((r) => r.reply?.kind === 'text' && r.reply.text.endsWith(`You said: ${MSG}`));
    assert.is(turns.length, 1, 'one model turn on the message');
    assert.equal(
      recordedUserMessages(join(menv.dir, 'baton-home')).filter((u) => u.includes('MARK-T1')),
      [MSG],
      'recorded once, as typed',
    );
    // The folder is trusted because the user said so in the pane.
    const claudeJson = JSON.parse(readFileSync(join(menv.home, '.claude.json'), 'utf8')) as { projects?: Record<string, { hasTrustDialogAccepted?: boolean }> };
    assert.ok(claudeJson.projects?.[untrusted]?.hasTrustDialogAccepted, "trusted by the user's answer");
  },
);

s.run();
