// real CLIs: claude, codex, gemini, qwen
// Models (issue 14 item 2), headless, with the real CLIs against the fake LLM: `baton agents
// --models` lists what each installed CLI can run (Claude Code from baton's table, codex from
// its own bundled catalog, gemini and qwen from their ACP session/new); `baton chat --model`
// on a conversation the same agent already holds is a model change: a new segment with the
// new model, the CLI's own session resumed (the request carries the earlier turn and the new
// model's name, and no brief). opencode is left out: its fake provider serves one model name.
// `npm run test:real -- codex` runs one CLI's part.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentModels } from '../../src/plugins/describe-models.js';
import { BatonInEnv } from '../helpers/baton-in-env.js';
import { selectedClis } from '../helpers/real-tui.js';

const clis = selectedClis(['claude', 'codex', 'gemini', 'qwen'] as const);
/** A model each CLI takes that is not the one it ran first, and one name its list must hold. */
const OTHER: Record<(typeof clis)[number], { model: string; listed: string }> = {
  claude: { model: 'claude-haiku-4-5', listed: 'haiku' },
  codex: { model: 'gpt-5.5', listed: 'gpt-5.5' },
  gemini: { model: 'gemini-2.5-flash', listed: 'gemini-2.5-pro' },
  qwen: { model: 'other-model', listed: 'fake-model' },
};

const s = suite('models: baton agents --models, baton chat --model mid-conversation');
const home = new BatonInEnv(s, clis, '240');

for (const cli of clis) {
  s(`${cli}: agents --models lists its models; chat --model records a segment and resumes its session`, async () => {
    const listed = await home.baton(['agents', '--models', '--json']);
    assert.is(listed.code, 0, listed.err);
    const row = (JSON.parse(listed.out) as AgentModels[]).find((r) => r.name === cli)!;
    assert.ok(row.installed, `${cli} installed`);
    assert.ok(
      row.models.some((m) => m.id === OTHER[cli].listed),
      `${cli} lists ${OTHER[cli].listed}: ${JSON.stringify(row)}`,
    );
    assert.ok(row.models.filter((m) => m.current).length <= 1, 'at most one current');

    const first = await home.chat(['--new', '--agent', cli, `remember MARK-ONE-${cli}`]);
    const before = home.fake.requestsContaining(`MARK-ONE-${cli}`);
    assert.ok(before.length > 0, 'the first turn reached the model');
    assert.not.ok(
      before.some((r) => r.model === OTHER[cli].model),
      'the first turn ran another model',
    );

    const next = await home.chat(['--conversation', first.conversation, '--model', OTHER[cli].model, `and now MARK-TWO-${cli}`]);
    assert.is(next.agent, cli);
    assert.ok(next.handoff, 'a model change is a new segment');
    assert.is(next.handoff!.from, cli);
    assert.is(next.handoff!.mode, 'resume', 'the native session continues');
    const asked = home.fake.requestsContaining(`MARK-TWO-${cli}`).filter((r) => r.model === OTHER[cli].model);
    assert.ok(asked.length > 0, `a request with the new model ${OTHER[cli].model}: ${home.fake.requestsContaining(`MARK-TWO-${cli}`).map((r) => r.model)}`);
    assert.ok(
      asked.some((r) => JSON.stringify(r.body).includes(`MARK-ONE-${cli}`)),
      'the same native session: the earlier turn is in the request',
    );
    assert.not.ok(
      asked.some((r) => JSON.stringify(r.body).includes('baton transcript show')),
      'no brief was sent',
    );

    const lines = readFileSync(join(home.env().BATON_HOME, 'conversations', first.conversation, 'transcript.jsonl'), 'utf8')
      .trim()
      .split('\n');
    const handoffs = lines
      .map((l) => JSON.parse(l) as { kind: string; to?: { harness: string; model: string }; mode?: string })
      .filter((e) => e.kind === 'handoff');
    const last = handoffs[handoffs.length - 1]!;
    assert.equal(last.to, { harness: cli, model: OTHER[cli].model });
    assert.is(last.mode, 'resume');
  });
}

s.run();
