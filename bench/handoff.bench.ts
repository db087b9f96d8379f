// baton's own overhead per handoff at 1k, 10k and 100k entries: a `baton chat` turn that
// hands a conversation from one real ACP agent (the test fixture agent) to another, timed
// in-process with the conversation already open (as a tab's is in the server), minus the time spent inside
// the target's headless turn (the CLI process). What remains is baton's work: git facts, building
// the brief, recording and fsyncing the handoff, the bookkeeping, closing. Detection (the
// agent's own `--version`) counts as CLI time too.
// The agent's own turn time is printed beside it as the reference. Target: <= 50 ms at 100k.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { runChat } from '../src/conversation/chat.js';
import type { HarnessDriver } from '../src/plugins/api.js';
import { loadRegistry, type Registry } from '../src/plugins/registry.js';
import { createConversation, openConversation } from '../src/transcript/store.js';
import { createGitFactsProvider } from '../src/worktree/git-facts.js';
import { writeFixtureDropIn } from '../test/helpers/acp-fixture.js';

const user = { type: 'user' as const, name: 'bench', device: 'bench' };
const root = mkdtempSync(join(tmpdir(), 'baton-handoff-bench-'));
const repo = join(root, 'repo');
execFileSync('git', ['init', '-q', '-b', 'main', repo]);
execFileSync('git', ['-C', repo, '-c', 'user.name=b', '-c', 'user.email=b@b', 'commit', '-q', '--allow-empty', '-m', 'init']);
const plugins = join(root, 'plugins');
for (const name of ['alpha', 'beta']) writeFixtureDropIn(plugins, { name, env: { ACP_FIXTURE_HOME: join(root, name) } });
const env = { ...process.env, BATON_HOME: join(root, 'home'), XDG_CONFIG_HOME: join(root, 'config') };

/** The registry, with each driver's headless turn timed so its time can be taken out. */
async function timedRegistry(): Promise<{ registry: Registry; cliMs: () => number }> {
  const registry = await loadRegistry({ env, pluginDirs: [plugins] });
  let spent = 0;
  const get = registry.get.bind(registry);
  const detect = registry.detect.bind(registry);
  // Detection runs the agent's own `--version`: a CLI process, not baton's time.
  registry.detect = async (name, opts) => {
    const t0 = performance.now();
    try {
      return await detect(name, opts);
    } finally {
      spent += performance.now() - t0;
    }
  };
  registry.get = (name: string): HarnessDriver => {
    const d = get(name);
    return {
      ...d,
      headless: async (turn) => {
        const t0 = performance.now();
        try {
          return await d.headless!(turn);
        } finally {
          spent += performance.now() - t0;
        }
      },
    };
  };
  return { registry, cliMs: () => spent };
}

async function seed(entries: number): Promise<string> {
  // As the product creates one in a repository (conversation/store/conversations.ts): on the
  // branch it started on, so a handoff's git facts are the branch and the diff stat from it.
  const c = await createConversation(env.BATON_HOME, { cwd: repo, title: 'bench', user, baseBranch: 'main' });
  const t = c.transcript;
  t.startSegment({ harness: 'alpha', model: 'default', switchId: 'seed' });
  let n = 0;
  while (t.lastSeq < entries - 6) {
    n++;
    t.apply({ type: 'user_text', text: `message ${n}: please look at src/module-${n % 50}.ts and fix the failing case` });
    t.apply({ type: 'tool_call', toolCallId: `c${n}`, toolName: 'Edit', input: { file_path: `src/module-${n % 50}.ts`, old_string: 'a', new_string: 'b' } });
    t.apply({ type: 'tool_result', toolCallId: `c${n}`, output: 'x'.repeat(200 + (n % 7) * 300) });
    t.apply({ type: 'agent_text', text: `Done with step ${n}. `.repeat(20) });
    t.apply({ type: 'turn_end', usage: { inputTokens: 1000, outputTokens: 100 } });
  }
  await c.close();
  return c.id;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

console.log("handoff overhead: baton chat alpha -> beta, in-process; CLI time (the agent's headless turn) excluded");
const rounds = 5;
for (const size of [1_000, 10_000, 100_000]) {
  const id = await seed(size);
  const overhead: number[] = [];
  const cli: number[] = [];
  const { registry, cliMs } = await timedRegistry();
  // Opened once and kept open across the handoffs, as a tab's conversation is in the server:
  // the first handoff also builds what the brief keeps for the next ones (printed apart).
  const t0 = performance.now();
  const conv = await openConversation(env.BATON_HOME, id, { write: true, user });
  const load = performance.now() - t0;
  for (let i = 0; i <= rounds; i++) {
    const cliBefore = cliMs();
    // Alternate targets so every round is a handoff (alpha -> beta -> alpha ...).
    const target = conv.transcript.currentSegment!.harness === 'alpha' ? 'beta' : 'alpha';
    const t1 = performance.now();
    await runChat({ agent: target, prompt: `round ${i}`, yes: false, timeoutMs: 60_000, env }, { conversation: conv, registry, git: createGitFactsProvider() });
    const total = performance.now() - t1;
    cli.push(cliMs() - cliBefore);
    overhead.push(total - (cliMs() - cliBefore));
  }
  await conv.close();
  await registry.dispose();
  const [first, ...rest] = overhead;
  const o = median(rest);
  console.log(
    `${String(size).padStart(6)} entries: baton ${o.toFixed(1)} ms per handoff with the conversation open (median of ${rounds}; the first after opening ${first!.toFixed(1)} ms), agent turn ${median(cli).toFixed(1)} ms, baton/agent ${(o / median(cli)).toFixed(2)}x; target <= 50 ms${o <= 50 ? ' (met)' : ' (MISSED)'}; a fresh \`baton chat\` process also loads it: ${load.toFixed(1)} ms`,
  );
}
rmSync(root, { recursive: true, force: true });
