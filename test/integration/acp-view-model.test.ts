// A model change in the running session of baton's ACP view (issue 14 item 2), with the
// fixture ACP agent (a real process) advertising its models the two ways ACP has: the model
// config option (session/set_config_option) and the older `models` field (session/set_model).
// The view driver asks the running view (changeViewModel: an APC string typed into it, the
// answer read from the view's log); the agent is told once, the next turn runs on the new
// model in the same session (the fixture's reply names its model and the previous turn), and
// the status line names it. An agent that advertises neither is not asked (the switch
// relaunches instead); a model the agent refuses is said, and the old one runs on.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { changeViewModel } from '../../src/plugins/acp-view-driver.js';
import { readViewLog, viewLogPath } from '../../src/plugins/acp-view-log.js';
import type { AcpAgentDecl } from '../../src/plugins/validate.js';
import { AcpViewProgram } from '../../src/tui/acp-view-program.js';
import { fixtureDecl } from '../helpers/acp-fixture.js';
import { until } from '../helpers/wait.js';

const TITLE = 'ACP fixture agent';

interface Running {
  program: AcpViewProgram;
  env: NodeJS.ProcessEnv;
  viewId: string;
  logPath: string;
  agentHome: string;
  screen(): string;
}

const s = suite('acp view model change');
let dir: string;
let running: Running | undefined;
let n = 0;

s.before(() => {
  dir = mkdtempSync(join(tmpdir(), 'baton-view-model-'));
});
s.after.each(async () => {
  await running?.program.dispose();
  running = undefined;
});
s.after(() => rmSync(dir, { recursive: true, force: true }));

async function start(models: string | undefined): Promise<Running> {
  const agentHome = join(dir, `agent-${++n}`);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    BATON_HOME: join(dir, 'baton'),
    ACP_FIXTURE_HOME: agentHome,
    ...(models ? { ACP_FIXTURE_MODELS: models } : {}),
  };
  const viewId = `view-00000000-0000-4000-8000-00000000000${n}`;
  const logPath = viewLogPath(env, viewId);
  let screen = '';
  const program = new AcpViewProgram({
    decl: fixtureDecl() as unknown as AcpAgentDecl,
    cwd: dir,
    env,
    viewId,
    logPath,
    out: { write: (b) => void (screen += b), cols: () => 100, rows: () => 24 },
  });
  running = { program, env, viewId, logPath, agentHome, screen: () => screen };
  await program.start();
  return running;
}

const replies = (r: Running) =>
  readViewLog(r.logPath).flatMap((l) => {
    const rec = l.rec as { t?: string; update?: { sessionUpdate?: string; content?: { text?: string } } } | undefined;
    return rec?.t === 'update' && rec.update?.sessionUpdate === 'agent_message_chunk' ? [rec.update.content?.text ?? ''] : [];
  });

async function turn(r: Running, text: string): Promise<void> {
  const ends = () => readViewLog(r.logPath).filter((l) => (l.rec as { t?: string } | undefined)?.t === 'turn_end').length;
  const before = ends();
  r.program.feed(`${text}\r`);
  await until(() => ends() > before, `the turn on ${text} over`, 20_000);
}

const ask = (r: Running, model: string) =>
  changeViewModel({ session: r.viewId, model, env: r.env, write: (d) => r.program.feed(d), screen: () => r.screen().split('\n'), timeoutMs: 15_000 }, TITLE);

for (const [via, method] of [
  ['config', 'set_config_option'],
  ['set_model', 'set_model'],
] as const) {
  s(`${via}: the model changes in the running session, the next turn runs on it with the earlier turn`, async () => {
    const r = await start(via);
    await turn(r, 'one');
    assert.match(replies(r).join(''), '[model fixture-small]');
    await until(() => r.screen().includes('fixture-small'), 'the status line names the model', 5000);
    assert.equal(await ask(r, 'fixture-large'), { kind: 'changed' });
    assert.equal(
      readFileSync(join(r.agentHome, 'model-calls.log'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => l.split(' ').slice(0, 2).join(' ')),
      [`${method} fixture-large`],
    );
    await turn(r, 'two');
    const all = replies(r).join('');
    assert.match(all, 'echo: two (previous: one) [model fixture-large]');
    const sessions = new Set(readViewLog(r.logPath).flatMap((l) => (l.acp ? [l.acp] : [])));
    assert.is(sessions.size, 1, 'one agent session');
    await until(() => r.screen().includes('fixture-large'), 'the status line names the new model', 5000);
  });
}

s('an agent that advertises no model change is not asked', async () => {
  const r = await start(undefined);
  await turn(r, 'one');
  const before = readFileSync(r.logPath, 'utf8');
  const answer = await ask(r, 'fixture-large');
  assert.is(answer.kind, 'unsupported');
  assert.is(readFileSync(r.logPath, 'utf8'), before, 'nothing typed into the view, nothing logged');
  assert.not.ok(existsSync(join(r.agentHome, 'model-calls.log')));
});

s('a model the agent refuses is said; the old one runs on', async () => {
  const r = await start('config');
  await turn(r, 'one');
  const answer = await ask(r, 'no-such-model');
  assert.is(answer.kind, 'refused');
  assert.match((answer as { why: string }).why, `${TITLE} did not change to model no-such-model`);
  await turn(r, 'two');
  assert.match(replies(r).join(''), 'echo: two (previous: one) [model fixture-small]');
});

s.run();
