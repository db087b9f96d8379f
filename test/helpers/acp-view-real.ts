// The steps every real suite of baton's ACP view takes with its CLI (test/real/acp-view-*.ts):
// the program of a "<agent> (baton view)" tab (`baton acp-view --agent NAME`, the built baton)
// in a real PTY, with the real CLI from .cache/clis against the fake LLM, in an isolated home:
// a scripted write asks with a permission card showing its diff; y writes the file on disk, n
// leaves it unwritten; Esc with a card open answers it cancelled and the next turn runs in the
// same session; a scripted shell call asks too, and runs once allowed; the view's log holds the
// approvals and turns the tab's ingest gives the transcript.
// The tests are steps of one session, in order.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readViewLog } from '../../src/plugins/acp-view-log.js';
import { type FakeLlm, startFakeLlm } from '../fake-llm/server.js';
import { builtBaton } from './built-baton.js';
import { type CliEnv, type CliName, cliEnv } from './cli-env.js';
import { TestTerminal } from './term.js';

const VIEW = 'view-0b1c2d3e-4f50-4617-8899-aabbccddeeff';

export interface ViewSuiteOptions {
  /** How long a turn may take (the CLI's start included). */
  turnMs: number;
}

export function acpViewSuite(cli: CliName, opts: ViewSuiteOptions): void {
  const s = suite(`acp view: ${cli}`);
  let fake: FakeLlm;
  let env: CliEnv;
  let t: TestTerminal;
  const TURN_MS = opts.turnMs;

  /** Types a message as a person would: once it shows in the input line, Enter. */
  async function say(text: string): Promise<void> {
    t.type(text);
    await t.waitFor(text.slice(-20), 10_000, 'the message in the input line');
    t.press('Enter');
  }
  const card = () => t.waitFor(/ y {2}Allow/, TURN_MS, 'the permission card');
  const idle = () => t.waitFor('Enter sends', TURN_MS, 'the turn over');

  s.before(async () => {
    fake = await startFakeLlm();
    env = cliEnv(cli, { fakeUrl: fake.url });
    t = new TestTerminal([process.execPath, builtBaton(), 'acp-view', '--agent', cli, '--view', VIEW], {
      cols: 110,
      rows: 40,
      cwd: env.cwd,
      env: { ...env.env, BATON_HOME: join(env.dir, 'baton') },
    });
  });

  s.after(async () => {
    await t?.kill();
    await env?.cleanup();
    await fake?.close();
  });

  s(`${cli} starts in the view; a write asks with a card; y writes the file on disk`, async () => {
    await t.waitFor('Enter sends', TURN_MS, `${cli} started`);
    await say('write it [[FAKE_WRITE: yes.txt :: allowed by the user]]');
    const screen = await card();
    assert.match(screen, '⚑ Permission needed');
    assert.match(screen, '+allowed by the user', 'the diff on the card');
    t.type('y');
    await t.waitFor('allowed once', TURN_MS);
    await idle();
    assert.is(readFileSync(join(env.cwd, 'yes.txt'), 'utf8').trim(), 'allowed by the user');
  });

  s('n rejects: the file is not written', async () => {
    await say('write again [[FAKE_WRITE: no.txt :: rejected by the user]]');
    await card();
    t.type('n');
    await t.waitFor('rejected:', TURN_MS);
    await idle();
    assert.not.ok(existsSync(join(env.cwd, 'no.txt')));
  });

  s('Esc with a card open: cancelled, nothing written; the next turn runs in the same session', async () => {
    await say('write later [[FAKE_WRITE: cancel.txt :: cancelled]]');
    await card();
    t.press('Escape');
    await t.waitFor('cancelled:', TURN_MS);
    await idle();
    assert.not.ok(existsSync(join(env.cwd, 'cancel.txt')));
    await say('after the cancel');
    // (claude-code-acp puts "[Request interrupted by user for tool use]" before it.)
    await t.waitFor(/You said: (.*\n)?after the cancel/, TURN_MS, 'the next turn answered');
    await idle();
  });

  s('a shell call that changes something asks; once allowed it runs (the file it makes on disk, its output shown)', async () => {
    await say('run it [[FAKE_SHELL: touch made-by-shell.txt; echo view-shell-out]]');
    const asked = await card();
    assert.match(asked, 'Run touch made-by-shell.txt; echo view-shell-out');
    t.type('y');
    await t.waitFor(/view-shell-out\s*$/m, TURN_MS, 'the output');
    await idle();
    assert.ok(existsSync(join(env.cwd, 'made-by-shell.txt')), t.screenText());
  });

  logTest(s, () => join(env.dir, 'baton', 'acp-views', `${VIEW}.jsonl`));
  s.run();
}

/** The view's log, which the tab's ingest follows: the approvals and every turn. */
function logTest(s: ReturnType<typeof suite>, path: () => string): void {
  s("the view's log, which the tab's ingest follows: the approvals and every turn", () => {
    const lines = readViewLog(path());
    const events = lines.flatMap((l) => (l.ev ? [l.ev] : []));
    assert.equal(
      events.filter((e) => e.type === 'approval').map((e) => (e as { decision: string }).decision),
      ['allowed', 'denied', 'cancelled', 'allowed'],
    );
    assert.is(events.filter((e) => e.type === 'user_text').length, 5);
    assert.is(events.filter((e) => e.type === 'turn_end').length, 5);
    assert.ok(
      lines.some((l) => l.acp),
      "the agent's own session id, for a reopened tab",
    );
  });
}
