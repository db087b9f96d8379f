// `baton worktree list [--json]` and `baton worktree remove <conversation-id|path> [--force]`:
// the worktrees forks live in, with their conversations, and removing one with its branch.

import type { Argv } from './yargs.js';
import { listForkWorktrees, removeForkWorktree, type ForkWorktreeRow } from '../conversation/worktree-forks.js';
import { resolveHome } from '../transcript/store.js';
import { stripControls } from '../transcript/sanitize.js';
import { jsonText, type Io } from './io.js';

const pad = (s: string, n: number) => (s.length >= n ? s : s + ' '.repeat(n - s.length));

function state(r: ForkWorktreeRow): string {
  const s = r.missing ? 'missing' : r.dirty === null ? '?' : r.dirty ? 'dirty' : 'clean';
  return r.locked ? `${s},locked` : s;
}

export function registerWorktree(y: Argv, io: Io): Argv {
  const home = () => resolveHome(io.env);
  return y.command('worktree', 'the git worktrees of forks: list, remove', (w) =>
    w
      .command(
        'list',
        'the linked worktrees of this repository, their conversations, and whether they have uncommitted changes',
        (c) => c.option('json', { type: 'boolean', default: false }),
        async (a) => {
          const rows = await listForkWorktrees(home(), io.cwd);
          if (a.json) {
            io.out(jsonText(rows) + '\n');
            return;
          }
          if (!rows.length) {
            io.out('no worktrees besides the main one (make one with baton fork ID --at SEQ --worktree)\n');
            return;
          }
          const branchWidth = Math.max(6, ...rows.map((r) => (r.branch ?? '(detached)').length));
          io.out(`${pad('CONVERSATION', 14)} ${pad('BRANCH', branchWidth)} ${pad('STATE', 13)} PATH\n`);
          for (const r of rows) {
            io.out(`${pad(r.conversation?.id ?? '-', 14)} ${pad(r.branch ?? '(detached)', branchWidth)} ${pad(state(r), 13)} ${stripControls(r.path)}\n`);
          }
        },
      )
      .command(
        'remove <target>',
        "remove a fork's worktree and its branch (refused when it has uncommitted changes, unless --force)",
        (c) =>
          c
            .positional('target', { type: 'string', demandOption: true, describe: "the fork's conversation id (or prefix), or the worktree's path" })
            .option('force', { type: 'boolean', default: false, describe: 'remove it even with uncommitted changes or commits no other branch holds' }),
        async (a) => {
          const r = await removeForkWorktree(home(), a.target, { force: a.force, cwd: io.cwd, env: io.env });
          io.out(`removed worktree ${stripControls(r.path)}${r.branch ? `; branch ${r.branch} ${r.branchDeleted ? 'deleted' : 'kept'}` : ''}\n`);
          if (r.conversation) io.err(`conversation ${r.conversation} stays (baton transcript show ${r.conversation}); its checkpoints go when it is pruned\n`);
        },
      )
      .demandCommand(1, 'say which: list or remove'),
  );
}
