// real CLIs: claude
// baton never types into a CLI's dialog (issue 9, item 4), in the real `baton` TUI with the
// real Claude Code against the fake LLM, through a real PTY, in a directory nobody trusted
// (the test home pre-seeds trust for its own work dir only). Claude Code shows its
// folder-trust dialog: the tab reads as needing the user, a compose-bar message is queued and
// not typed (its Enter answered "Yes, I trust this folder"), nothing reaches the model. Once
// the user answers the dialog in the pane, the queued message goes, once.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeLlm, type FakeLlm } from '../fake-llm/server.js';
import { multiCliEnv, type MultiCliEnv } from '../helpers/multi-cli-env.js';
import { TestTerminal } from '../helpers/term.js';
import { endServers, ROOT, serverEnv } from '../helpers/baton-tui.js';

let fake: FakeLlm;
let menv: MultiCliEnv;
let t: TestTerminal;
let untrusted: string;

const MSG = 'hello from the compose bar MARK-T1';

/** Moves the open picker's selection down to the entry whose label is exactly `label`, and takes it. */
function pick(label: string): void {
  const top = t.rows().findIndex((r) => /┌─ New tab /.test(r));
  const col = t.rows()[top]!.indexOf('┌');
  const items: string[] = [];
  for (const r of t.rows().slice(top + 1)) {
    if ([...r][col] !== '│') break;
    items.push([...r].slice(col + 1).join('').split('│')[0]!.trim());
  }
  const at = items.findIndex((i) => i === label || i.startsWith(`${label}  `));
  assert.ok(at >= 0, `the picker lists ${label}: ${items.join(' | ')}`);
  for (let i = 0; i < at; i++) t.press('Down');
  t.press('Enter');
}

/** Esc alone: blessed reads an Esc followed at once by another key as Alt+key, as terminals do. */
async function pressEscape(): Promise<void> {
  t.press('Escape');
  await new Promise((r) => setTimeout(r, 400));
}

/** Fails if `pred` stops holding within `ms` (what would happen at once if baton typed into the dialog). */
async function holds(pred: (screen: string) => boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    await new Promise<void>((r) => t.term.write('', r));
    assert.ok(pred(t.screenText()), `${what}; screen was:\n${t.screenText()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function recordedUserMessages(): string[] {
  const dir = join(menv.dir, 'baton-home', 'conversations');
  const out: string[] = [];
  for (const id of readdirSync(dir)) {
    for (const line of readFileSync(join(dir, id, 'transcript.jsonl'), 'utf8').split('\n')) {
      if (!line.trim()) continue;
      const e = JSON.parse(line) as { kind?: string; text?: string };
      if (e.kind === 'user_message') out.push(e.text ?? '');
    }
  }
  return out;
}

const TRUST_DIALOG = /Yes, I trust this folder/;

const s = suite('tui dialog with claude');
s.before(async () => {
  fake = await startFakeLlm();
  menv = multiCliEnv({ fakeUrl: fake.url, names: ['claude'] });
  // A directory the test home does not trust: Claude Code asks first.
  untrusted = join(menv.dir, 'untrusted');
  mkdirSync(untrusted);
  execFileSync('git', ['init', '-q', '-b', 'main', untrusted]);
  execFileSync('git', ['-C', untrusted, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '--allow-empty', '-m', 'init']);
  t = new TestTerminal([process.execPath, join(ROOT, 'dist/src/cli.js'), untrusted], {
    cols: 100,
    rows: 30,
    cwd: untrusted,
    env: { ...menv.env, ...serverEnv(menv.dir), PWD: untrusted, BATON_HOME: join(menv.dir, 'baton-home'), XDG_CONFIG_HOME: join(menv.dir, 'config'), TERM: 'xterm-256color', LANG: 'C.UTF-8' },
  });
});
s.after(async () => {
  await t?.kill();
  // The tabs run in baton's server: ended by pid with the test's socket directory.
  if (menv) await endServers(join(menv.dir, 'run'));
  await menv?.cleanup();
  await fake?.close();
});

s('claude\'s folder-trust dialog reads as needing the user; a compose-bar message is queued, not typed into it; answered in the pane, the message goes once', async () => {
  await t.waitFor(/│Claude Code  \d[^]*│Plain shell/, 90_000, 'the agent picker listing Claude Code');
  pick('Claude Code');
  await t.waitFor(TRUST_DIALOG, 90_000, 'claude\'s folder-trust dialog');
  await t.waitFor(/1:Claude Code[^\n]*needs (approval|you)/, 30_000, 'the tab says it needs the user');

  t.press('C-b', 'm');
  t.type(MSG);
  t.press('Enter');
  await t.waitFor(/queued \(1\)/, 10_000, 'the message queued');
  // Typed, it would have gone at once (paste, then Enter within a second): the dialog stays, unanswered.
  await holds((scr) => TRUST_DIALOG.test(scr) && /queued \(1\)/.test(scr), 4000, 'the dialog is still up and the message still queued');
  assert.is(fake.requestsContaining('MARK-T1').length, 0, 'nothing reached the model');

  // The user answers the dialog in the pane ("Yes, I trust this folder" is selected).
  await pressEscape();
  t.press('Enter');
  await fake.waitForRequest((r) => r.reply?.kind === 'text' && r.reply.text.includes('MARK-T1'), 90_000, 'the model answering the queued message');
  await t.waitFor(/You said: hello from the compose bar MARK-T1/, 60_000, 'claude\'s reply in the pane');
  await t.waitFor((scr) => /1:Claude Code[^\n]*idle/.test(scr) && !/queued \(\d+\)/.test(scr), 60_000, 'claude idle, baton\'s queue empty');

  const turns = fake.requests().filter((r) => r.reply?.kind === 'text' && r.reply.text.endsWith(`You said: ${MSG}`));
  assert.is(turns.length, 1, 'one model turn on the message');
  assert.equal(recordedUserMessages().filter((u) => u.includes('MARK-T1')), [MSG], 'recorded once, as typed');
  // The folder is trusted because the user said so in the pane.
  const claudeJson = JSON.parse(readFileSync(join(menv.home, '.claude.json'), 'utf8')) as { projects?: Record<string, { hasTrustDialogAccepted?: boolean }> };
  assert.ok(claudeJson.projects?.[untrusted]?.hasTrustDialogAccepted, 'trusted by the user\'s answer');
});

s.run();
