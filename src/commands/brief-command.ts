// `baton brief ID [--upto SEQ] [--to NAME] [--max-chars N]`: prints the handoff brief
// exactly as it would be sent, built by the same code path the switch uses.

import type { Argv } from './yargs.js';
import { noSuchEntry } from '../errors.js';
import { lastSegmentOf, prepareBrief, type BriefTarget } from '../conversation/prepare-brief.js';
import { briefMaxCharsFromEnv, parseBriefMaxChars } from '../transcript/settings.js';
import { readConversation, resolveHome } from '../transcript/store.js';
import type { Transcript } from '../transcript/transcript.js';
import { createGitFactsProvider } from '../worktree/git-facts.js';
import type { Io } from './io.js';
import { agentCatalog } from './agent-catalog.js';
import { wholeNumberArg } from './number-arg.js';

/** A seq given on the command line: not a whole number is exit 2, no such entry exit 9. */
export function parseSeq(raw: unknown, t: Transcript, flag: string): number | undefined {
  if (raw === undefined) return undefined;
  const n = wholeNumberArg(String(raw), flag, "an entry's seq", `see the seqs with baton transcript show ${t.id}`);
  if (n < 1 || n > t.lastSeq) {
    throw noSuchEntry(
      `${flag} ${String(raw)} is not an entry of conversation ${t.id}`,
      t.lastSeq ? `give a seq from 1 to ${t.lastSeq} (see baton transcript show ${t.id})` : 'the conversation has no entries yet',
    );
  }
  return n;
}

export function registerBrief(y: Argv, io: Io): Argv {
  return y.command(
    'brief <id>',
    'print the handoff brief exactly as it would be sent',
    (c) =>
      c
        .positional('id', { type: 'string', demandOption: true, describe: 'conversation id (or a unique prefix)' })
        .option('upto', { type: 'string', describe: 'last entry (seq) the brief covers; default the newest' })
        .option('to', { type: 'string', describe: 'the agent that would receive it; default: the next agent, as a fresh start' })
        .option('max-chars', { type: 'string', describe: 'character budget (default BATON_BRIEF_MAX_CHARS or 120000)' }),
    async (a) => {
      const budget = a.maxChars !== undefined ? parseBriefMaxChars(a.maxChars, '--max-chars') : briefMaxCharsFromEnv(io.env);
      if (budget.warning) io.err(`baton: warning: ${budget.warning}\n`);
      const conv = await readConversation(resolveHome(io.env), a.id);
      let catalog: Awaited<ReturnType<typeof agentCatalog>> | undefined;
      try {
        const t = conv.transcript;
        const upto = parseSeq(a.upto, t, '--upto');
        catalog = await agentCatalog(io);
        const target = a.to
          ? accountTarget(catalog.target(a.to, lastSegmentOf(t.segments, a.to)?.model), lastSegmentOf(t.segments, a.to)?.account)
          : { harness: 'next-agent', model: 'default', title: 'the next agent', canResume: false };
        const { brief } = await prepareBrief({
          transcript: t,
          title: conv.meta.data.title,
          cwd: conv.meta.data.cwd,
          baseBranch: conv.meta.data.baseBranch,
          target,
          maxChars: budget.maxChars,
          uptoSeq: upto,
          git: createGitFactsProvider(),
          agentTitles: catalog.titles,
        });
        if (brief.text === null) {
          io.err(
            brief.reason === 'empty'
              ? 'no brief: nothing to hand over yet\n'
              : `no brief: a budget of ${brief.budget} characters leaves no room for the conversation\n`,
          );
          return;
        }
        io.out(brief.text.endsWith('\n') ? brief.text : brief.text + '\n');
      } finally {
        await conv.close();
        await catalog?.registry.dispose();
      }
    },
  );
}

/** The target under the account it last ran under here: only that account's session can be resumed. */
function accountTarget(target: BriefTarget, account: string | undefined): BriefTarget {
  return account ? { ...target, account } : target;
}
