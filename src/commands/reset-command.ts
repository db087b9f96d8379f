// `baton reset ID --to SEQ [--restore] [--force]` and `baton reset ID --undo`.

import type { Argv } from './yargs.js';
import { badInput } from '../errors.js';
import { resetConversation, undoLastReset } from '../conversation/reset.js';
import { userAuthor } from '../conversation/user.js';
import { openConversation, resolveHome } from '../transcript/store.js';
import type { Io } from './io.js';
import { wholeNumberArg } from './number-arg.js';

export function registerReset(y: Argv, io: Io): Argv {
  return y.command(
    'reset <id>',
    'hide the entries after SEQ (kept, and undoable); --restore also puts the worktree back as it was then',
    (c) =>
      c
        .positional('id', { type: 'string', demandOption: true })
        .option('to', { type: 'string', describe: 'the last entry to keep' })
        .option('restore', { type: 'boolean', default: false, describe: 'restore the checkpoint taken after that entry into the worktree' })
        .option('force', { type: 'boolean', default: false, describe: 'with --restore: overwrite changes no checkpoint holds' })
        .option('undo', { type: 'boolean', default: false, describe: 'undo the last reset instead' }),
    async (a) => {
      if (a.undo === (a.to !== undefined)) throw badInput('say either --to SEQ or --undo', 'baton reset ID --to SEQ [--restore]');
      const to = a.to === undefined ? undefined : wholeNumberArg(a.to, '--to', "an entry's seq", `see the seqs with baton transcript show ${a.id}`);
      const conv = await openConversation(resolveHome(io.env), a.id, { write: true, user: userAuthor(io.env) });
      try {
        if (a.undo) {
          const e = undoLastReset(conv);
          io.out(`undid the reset: conversation ${conv.id} shows everything again (#${e.seq})\n`);
          return;
        }
        const r = await resetConversation(conv, to!, { restore: a.restore, force: a.force });
        io.out(`conversation ${conv.id} reset to #${to}: ${r.hidden} entries hidden (undo with baton reset ${conv.id} --undo)\n`);
        if (r.restored)
          io.out(
            `worktree restored from checkpoint ${r.restored.checkpoint.slice(0, 12)}: ${r.restored.written} files written, ${r.restored.removed} removed\n`,
          );
        io.out('the next message is sent as a replay of the conversation up to there\n');
      } finally {
        await conv.close();
      }
    },
  );
}
