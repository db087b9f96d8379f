// real CLIs: claude, codex, gemini, qwen, opencode
// The five real agent CLIs (claude, codex, gemini, qwen, opencode), installed at their
// pinned versions in .cache/clis, each in an isolated home against the fake LLM:
// one non-interactive turn whose reply echoes a unique token that the fake's log shows
// reaching the model; a resume in a second process that sends the first turn's token to
// the model again; and scripted shell + write tool calls that change files on disk.
// Every CLI runs in its own process group, killed when it ends; each home's leftovers
// are ended by pid in cleanup, which the codex TUI's detached daemon shows is needed.
// Each CLI's tests are steps in its home, in order: the resume continues the first turn's session.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeLlm, type FakeLlm } from '../fake-llm/server.js';
import { exeOf, processesUnder, readStat, signalGroup } from '../../src/proc/index.js';
import { cliEnv, type CliEnv } from '../helpers/cli-env.js';
import { selectedRuns } from '../helpers/cli-runs.js';
import { lastSeqOf, requestsCarrying, token } from '../helpers/real-driver.js';
import { describeRun, runCli, type CliRun } from '../helpers/run-cli.js';
import { TestTerminal } from '../helpers/term.js';
import { until } from '../helpers/wait.js';

const timings: string[] = [];

for (const spec of selectedRuns()) {
  const s = suite(`${spec.name} (real CLI)`);
  let fake: FakeLlm;
  let env: CliEnv;
  let first: { token: string; session: string } | undefined;

  s.before(async () => {
    fake = await startFakeLlm();
    env = cliEnv(spec.name, { fakeUrl: fake.url });
  });
  s.after(async () => {
    await env.cleanup();
    await fake.close();
  });

  async function run(label: string, args: string[]): Promise<CliRun> {
    const r = await runCli(env, args);
    timings.push(`${spec.name} ${label}: ${(r.ms / 1000).toFixed(1)} s`);
    assert.ok(!r.timedOut && r.code === 0, `${spec.name} ${label}: ${describeRun(r)}`);
    return r;
  }

  s('one non-interactive turn: the reply echoes the token, the log shows it reached the model', async () => {
    const tok = token(spec.name);
    const before = lastSeqOf(fake);
    const r = await run('turn', spec.turn(`hello ${tok}`));
    const p = spec.parse(r);
    assert.match(p.reply, tok, `${spec.name} reply: ${describeRun(r)}`);
    assert.ok(p.session, `${spec.name} reported a session id: ${describeRun(r)}`);
    assert.ok(requestsCarrying(fake, before, tok).length > 0, 'a generate request carried the token');
    first = { token: tok, session: p.session };
  });

  s("resume in a second process: the first turn's token reaches the model again", async () => {
    assert.ok(first, 'the first turn ran');
    const tok2 = token(`${spec.name}-resume`);
    const before = lastSeqOf(fake);
    const r = await run('resume', spec.resume(first.session, `again ${tok2}`));
    const p = spec.parse(r);
    assert.match(p.reply, tok2, describeRun(r));
    const both = requestsCarrying(fake, before, tok2, first.token);
    assert.ok(both.length > 0, `a request of the resumed process carried both ${first.token} and ${tok2}`);
  });

  s('scripted tool calls: a shell command and a file write land in the work dir', async () => {
    const shellTok = token('shell');
    const writeTok = token('write');
    const r = await run('tools', spec.tools(`[[FAKE_SHELL: echo ${shellTok} > from-shell.txt]] [[FAKE_WRITE: from-write.txt :: ${writeTok}]]`));
    const p = spec.parse(r);
    const shellFile = join(env.cwd, 'from-shell.txt');
    const writeFile = join(env.cwd, 'from-write.txt');
    assert.ok(existsSync(shellFile), `shell tool ran: ${describeRun(r)}`);
    assert.is(readFileSync(shellFile, 'utf8').trim(), shellTok);
    assert.ok(existsSync(writeFile), `write tool ran: ${describeRun(r)}`);
    assert.is(readFileSync(writeFile, 'utf8').trim(), writeTok);
    assert.match(p.reply, 'done after 2 tool call(s)');
  });

  s.run();
}

const daemon = suite('codex TUI leaves a daemon (real CLI)');

daemon('the app-server daemon outlives the TUI and cleanup ends it by pid', async () => {
  const fake = await startFakeLlm();
  const env = cliEnv('codex', { fakeUrl: fake.url });
  const t = new TestTerminal([env.bin], { cwd: env.cwd, env: env.env, cols: 120, rows: 40 });
  let killed = false;
  try {
    await t.waitFor('Ask Codex', 60_000, 'the codex prompt');
    const tok = token('tui');
    t.type(tok);
    // Enter only once the text is on screen: typed text followed at once by Enter is
    // taken for a paste, and the Enter becomes a newline.
    await t.waitFor(tok, 15_000);
    t.press('Enter');
    // The TUI first runs a staged copy in its own session; the daemon proper runs from
    // releases/ in a session of its own, which a kill of the TUI's group does not reach.
    const releases = join(env.home, '.codex/packages/app-server-daemon/releases/');
    const daemons = () =>
      processesUnder(env.dir).filter((pid) => {
        const session = readStat(pid)?.session ?? -1;
        return (exeOf(pid) ?? '').startsWith(releases) && session !== t.pid && session > 0;
      });
    await until(() => daemons().length > 0, 'a detached codex daemon running from $CODEX_HOME/packages', 90_000);
    // A hard kill of the TUI's group, as when baton force-closes a pane: the daemon lives on.
    signalGroup(t.pid, 'SIGKILL');
    await t.exited;
    await t.kill();
    killed = true;
    assert.ok(daemons().length > 0, "the daemon is still running after the TUI's process group was killed");
  } finally {
    if (!killed) await t.kill();
    await env.cleanup();
    await fake.close();
  }
  assert.equal(processesUnder(env.dir), [], 'nothing left under the scratch dir');
});

daemon.run();

// Shown with BATON_TEST_VERBOSE=1 or on failure; speed checks belong in bench/.
process.on('exit', () => console.log(`\nCLI timings (wall clock, fake LLM answers at once):\n  ${timings.join('\n  ')}`));
