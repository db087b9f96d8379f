// `baton chat [--conversation ID | --new] [--agent NAME] [--model M] [--account A] [--json] [PROMPT | --file PATH | -]`:
// one headless turn. Naming an agent other than the conversation's current one is a handoff.
// The message may come from a file or standard input (message-input.ts), never only argv.

import type { Argv } from './yargs.js';
import { runChat, type ChatResult } from '../conversation/chat.js';
import { checkAccountName, DEFAULT_ACCOUNT } from '../plugins/account-dir.js';
import { userAuthor } from '../conversation/user.js';
import { deletePrunedCheckpoints } from '../conversation/prune-checkpoints.js';
import { BatonError, EXIT, badInput } from '../errors.js';
import { createConversation, formatProblem, openConversation, pruneAtStartup, resolveHome, titleFrom, type OpenConversation } from '../transcript/store.js';
import { createCheckpoint } from '../worktree/checkpoint.js';
import { currentBranch, isRepo } from '../worktree/git.js';
import { createGitFactsProvider } from '../worktree/git-facts.js';
import { agentCatalog } from './agent-catalog.js';
import { jsonText, type Io } from './io.js';
import { stripControls } from '../transcript/sanitize.js';
import { readMessage } from './message-input.js';
import { positiveNumberArg } from './number-arg.js';
import { chooseLocal } from '../conversation/local-choice.js';
import type { LocalEndpointRef } from '../transcript/types.js';
import type { Registry } from '../plugins/registry.js';
import { PERMISSION_MODES, type PermissionMode } from '../plugins/api.js';

export function registerChat(y: Argv, io: Io): Argv {
  return y.command(
    'chat [prompt]',
    'one headless turn; naming another agent hands the conversation over to it',
    (c) =>
      c
        .positional('prompt', { type: 'string', describe: 'the message to send (- or none with a pipe: read it from standard input)' })
        .option('file', { alias: 'f', type: 'string', describe: 'read the message from this file (- for standard input)' })
        .option('conversation', { alias: 'c', type: 'string', describe: 'continue this conversation (id or unique prefix)' })
        .option('new', { type: 'boolean', describe: 'start a new conversation (the default without --conversation)' })
        .conflicts('conversation', 'new')
        .option('agent', { alias: 'a', type: 'string', describe: "the agent to run (default: the conversation's current one)" })
        .option('model', { alias: 'm', type: 'string', describe: 'the model to ask the agent for' })
        .option('local', { type: 'string', describe: 'run this model of a local server, in the harness its family calls for (docs/local-models.md)' })
        .option('endpoint', { type: 'string', describe: 'the local server for --local (default: Ollama, http://127.0.0.1:11434)' })
        .conflicts('local', ['agent', 'model'])
        .option('account', {
          type: 'string',
          describe: "the agent's account to run under (baton accounts list; default: the one it ran under here, else its default account)",
        })
        .option('summary', {
          type: 'boolean',
          default: false,
          describe: 'before switching to another agent, ask the current one for a summary of the conversation that the brief uses',
        })
        .option('json', { type: 'boolean', default: false, describe: 'print the new entries and the conversation id as JSON' })
        .option('yes', { alias: 'y', type: 'boolean', default: false, describe: 'let the agent use tools without asking (--mode full-access)' })
        .option('mode', {
          type: 'string',
          choices: PERMISSION_MODES,
          describe:
            'default (a tool that would ask is refused), accept-edits (file edits go ahead), plan (read and plan only: nothing is changed), full-access (= --yes)',
        })
        .option('timeout', { type: 'string', default: '600', describe: 'seconds before the agent is stopped (exit 4)' }),
    (a) => chatCommand(io, a),
  );
}

interface ChatArgs {
  prompt?: string;
  file?: string;
  conversation?: string;
  agent?: string;
  model?: string;
  local?: string;
  endpoint?: string;
  /** Set from --local: the server the chosen harness is pointed at, recorded with its segment. */
  localRef?: LocalEndpointRef;
  account?: string;
  summary: boolean;
  json: boolean;
  yes: boolean;
  mode?: PermissionMode;
  timeout: string;
}

async function chatCommand(io: Io, a: ChatArgs): Promise<void> {
  const timeout = positiveNumberArg(a.timeout, '--timeout', 'seconds');
  if (a.account !== undefined) checkAccountName(a.account);
  if (a.yes && a.mode && a.mode !== 'full-access')
    throw badInput(`--yes is full access and cannot go with --mode ${a.mode}`, `leave out --yes, or use --mode full-access`);
  const prompt = await readMessage({ prompt: a.prompt, file: a.file }, io);
  const home = resolveHome(io.env);
  const pruned = await pruneAtStartup(home, io.env);
  if (pruned?.pruned.length) await deletePrunedCheckpoints(pruned.pruned, (w) => io.err(`baton: warning: ${w}\n`));
  const catalog = await agentCatalog(io);
  try {
    if (a.endpoint !== undefined && a.local === undefined) throw badInput('--endpoint goes with --local MODEL');
    if (a.local !== undefined) {
      const local = await chooseLocal(catalog.registry, a.local, a.endpoint, io.env);
      if (local.warning) io.err(`baton: warning: ${local.warning}\n`);
      io.err(`baton: ${a.local} at ${local.endpoint}: ${local.agent} (${local.choice.family} family, ${local.choice.api})\n`);
      Object.assign(a, { agent: local.agent, model: local.model, localRef: local.local });
    }
    // Validate the agent before a new conversation is created for it.
    if (a.agent) catalog.registry.get(a.agent);
    const conv = await chatConversation(io, home, a, catalog.registry, prompt);
    await chatTurn(io, a, conv, catalog.registry, prompt, timeout);
  } finally {
    await catalog.registry.dispose();
  }
}

/** The conversation --conversation names, or a new one in the current directory (which needs --agent). */
async function chatConversation(io: Io, home: string, a: ChatArgs, registry: Registry, prompt: string): Promise<OpenConversation> {
  if (a.conversation) {
    const conv = await openConversation(home, a.conversation, { write: true, user: userAuthor(io.env) });
    for (const p of conv.problems) io.err(`baton: warning: conversation ${conv.id}: ${stripControls(formatProblem(p))}\n`);
    return conv;
  }
  if (!a.agent) throw badInput('a new conversation needs an agent', `give --agent NAME (known: ${registry.names().join(', ')})`);
  const repo = await isRepo(io.cwd);
  return createConversation(home, {
    cwd: io.cwd,
    title: titleFrom(prompt),
    user: userAuthor(io.env),
    baseBranch: repo ? ((await currentBranch(io.cwd)) ?? undefined) : undefined,
  });
}

/** The turn and its answer printed; afterwards the conversation is closed, or discarded when new and unused. */
async function chatTurn(io: Io, a: ChatArgs, conv: OpenConversation, registry: Registry, prompt: string, timeout: number): Promise<void> {
  // Ctrl-C, SIGTERM or a hangup cancel the turn: the driver ends the CLI's process group
  // (nothing is left running) and what the agent said so far stays in the transcript. A
  // driver that does not stop within a few seconds is abandoned (turn-guard.ts): exit 130
  // all the same, and the groups it started through the kit end as baton exits.
  const cancel = new AbortController();
  const onSignal = (sig: NodeJS.Signals) => {
    if (cancel.signal.aborted) return;
    io.err(`baton: ${sig}: cancelling the turn\n`);
    cancel.abort(sig);
  };
  const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  for (const sig of signals) process.on(sig, onSignal);
  // baton's own words when it had to stop waiting for the driver, else the plain cancel.
  const cancelled = (err?: unknown) =>
    new BatonError(
      err instanceof BatonError && err.exitCode === EXIT.cancelled ? err.message : `the turn was cancelled (${String(cancel.signal.reason)})`,
      EXIT.cancelled,
      `your message and what the agent said before it stopped are in the transcript: baton transcript show ${conv.id}`,
    );
  let failed = false;
  try {
    const cwd = conv.meta.data.cwd;
    const repo = await isRepo(cwd);
    const result = await runChat(
      {
        agent: a.agent,
        model: a.model,
        ...(a.account !== undefined ? { account: a.account } : {}),
        prompt,
        yes: a.yes,
        ...(a.mode ? { mode: a.mode } : {}),
        timeoutMs: timeout * 1000,
        env: io.env,
        ...(a.localRef ? { local: a.localRef } : {}),
        signal: cancel.signal,
        ...(a.summary ? { summary: true } : {}),
      },
      {
        conversation: conv,
        registry,
        git: createGitFactsProvider(),
        checkpoint: repo ? (seq) => createCheckpoint(cwd, conv.id, seq) : undefined,
        warn: (w) => io.err(`baton: warning: ${w}\n`),
      },
    );
    if (a.json) {
      io.out(
        jsonText({
          conversation: result.conversationId,
          agent: result.agent,
          model: result.model,
          account: result.account,
          local: result.local ?? null,
          handoff: result.handoff ?? null,
          entries: result.entries,
        }) + '\n',
      );
    } else {
      io.out(stripControls(result.reply) + '\n');
      const local = result.local ? ` · local at ${result.local.endpoint}` : '';
      io.err(`conversation ${result.conversationId} · ${result.agent} (${result.model})${local}${accountText(result)}${handoffText(result)}\n`);
    }
    if (cancel.signal.aborted) throw cancelled();
  } catch (err) {
    failed = true;
    // A driver that was cancelled before its CLI started fails instead: still a cancel.
    if (cancel.signal.aborted) throw cancelled(err);
    throw err;
  } finally {
    for (const sig of signals) process.off(sig, onSignal);
    // A new conversation that failed before the user's message was recorded (the agent
    // is not installed, the disk is full) leaves nothing behind.
    if (failed && !a.conversation) await conv.discardIfUnused();
    else await conv.close();
  }
}

function accountText(r: ChatResult): string {
  return r.account === DEFAULT_ACCOUNT ? '' : ` · account ${r.account}`;
}

/** How the turn took the conversation over, if it did: from another agent, or from another account of this one. */
function handoffText(r: ChatResult): string {
  const h = r.handoff;
  if (!h?.from) return '';
  const from = h.fromAccount ?? DEFAULT_ACCOUNT;
  if (h.from === r.agent && from !== r.account) return ` · switched to account ${r.account} from ${from} (${h.mode})`;
  if (h.from === r.agent && h.fromModel !== r.model) return ` · switched model to ${r.model} from ${h.fromModel ?? 'default'} (${h.mode})`;
  return ` · handed over from ${h.from} (${h.mode})`;
}
