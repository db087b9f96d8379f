// `baton fork ID --at SEQ [--worktree] [--agent NAME] [--account NAME] [--name NAME] [--json]`: a new
// conversation from ID's history up to SEQ, in a new tab (same directory) or a new git
// worktree on branch baton/<name>. Prints the new id first (and the worktree and branch),
// then on stderr whether the fork is native (its first turn forks the agent's own session)
// or a replay (a brief), and why.

import type { Argv } from './yargs.js';
import { forkConversation, type ForkResult } from '../conversation/fork.js';
import { checkAccountName } from '../plugins/account-dir.js';
import { resolveHome } from '../transcript/store.js';
import { agentCatalog } from './agent-catalog.js';
import { jsonText, type Io } from './io.js';
import { wholeNumberArg } from './number-arg.js';

function describe(io: Io, r: ForkResult): void {
  io.out(`${r.id}\n`);
  if (r.worktree) {
    io.out(`worktree ${r.worktree.path}\n`);
    io.out(`branch ${r.worktree.branch}\n`);
  }
  const from = `${r.forkedFrom.conversation} at #${r.forkedFrom.seq}`;
  io.err(`forked ${from} into conversation ${r.id} "${r.title}" (${r.entries} entries)\n`);
  const w = r.worktree;
  if (w) {
    const start =
      w.from.kind === 'checkpoint' ? `the checkpoint of #${w.from.seq}` : 'a checkpoint of the working tree taken now (the fork point is the last turn)';
    io.err(`worktree at ${start}, commit ${w.commit.slice(0, 12)}\n`);
    if (w.base.branch) io.err(`base: ${w.base.branch}\n`);
    else io.err(`base: HEAD is detached, so the fork records commit ${w.base.commit.slice(0, 12)} as its base (no branch)\n`);
    if (w.copied.length) io.err(`copied from .batoninclude: ${w.copied.join(', ')}\n`);
    for (const s of w.skipped) io.err(`baton: warning: .batoninclude: ${s.path}: ${s.reason}\n`);
    if (w.setupOutput !== undefined) io.err('setup command ran\n');
  }
  const agent = r.agent ? `${r.agent.harness} (${r.agent.model})${r.account ? `, account ${r.account}` : ''}` : 'the agent of your choice (--agent NAME)';
  if (r.mode === 'native' && r.nativeSession) {
    const n = r.nativeSession;
    io.err(
      `native fork: continues with ${agent}; the first message forks ${n.harness}'s own session ${n.agentSession} (it holds the conversation up to #${r.forkedFrom.seq}; that session is left as it was)\n`,
    );
  } else {
    io.err(
      `replay fork: continues with ${agent}; the first message replays the conversation up to #${r.forkedFrom.seq} with a brief, because ${r.replayReason ?? 'no agent session can be forked'}\n`,
    );
  }
  io.err(`next: baton chat --conversation ${r.id} "..."\n`);
}

export function registerFork(y: Argv, io: Io): Argv {
  return y.command(
    'fork <id>',
    "a new conversation from ID's history up to SEQ, in the same directory or (--worktree) a new git worktree",
    (c) =>
      c
        .positional('id', { type: 'string', demandOption: true, describe: 'the conversation to fork (id or unique prefix)' })
        .option('at', { type: 'string', demandOption: true, describe: 'the last entry the fork keeps' })
        .option('worktree', { type: 'boolean', default: false, describe: 'fork into a new git worktree on branch baton/<name>, files as they were then' })
        .option('agent', { alias: 'a', type: 'string', describe: 'the agent the fork continues with (default: the one that ran SEQ)' })
        .option('account', { type: 'string', describe: "the agent's account the fork runs under (another account than SEQ's makes it a replay)" })
        .option('name', { type: 'string', describe: 'with --worktree: branch baton/NAME, directory <repo>-NAME (default: the new id)' })
        .option('json', { type: 'boolean', default: false, describe: 'print the result as JSON' }),
    async (a) => {
      const at = wholeNumberArg(a.at, '--at', "an entry's seq", `see the seqs with baton transcript show ${a.id}`);
      if (a.account !== undefined) checkAccountName(a.account);
      // The drivers are asked whether the agent can fork its own session (a native fork).
      const catalog = await agentCatalog(io);
      try {
        const r = await forkConversation(resolveHome(io.env), a.id, at, {
          worktree: a.worktree,
          ...(a.agent !== undefined ? { agent: a.agent } : {}),
          ...(a.account !== undefined ? { account: a.account } : {}),
          ...(a.name !== undefined ? { name: a.name } : {}),
          registry: catalog.registry,
          env: io.env,
        });
        if (a.json) io.out(jsonText(r) + '\n');
        else describe(io, r);
      } finally {
        await catalog.registry.dispose();
      }
    },
  );
}
