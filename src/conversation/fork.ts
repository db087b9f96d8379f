// Fork a conversation at an entry into a new conversation: a new tab in the same directory,
// or (worktree) a new git worktree on branch baton/<name> holding the files as they were
// after that entry. The fork holds the source's visible entries up to the fork point, seqs
// kept, and records where it came from.
//
// The fork drops the source's `cursor` and `agent_session` entries: continuing the source's
// own session would mix both histories. Its first turn then gets the history one of two ways:
//   native  the agent's own session holds exactly the history up to the fork point (see
//           fork-native.ts for when): the fork records a cursor marked `fork` for that
//           session, and its first turn forks it (claude --fork-session, codex exec fork, ACP
//           session/fork) and sends only the new message; a fork into a worktree carries the
//           session there first (claude);
//   replay  otherwise: the first turn sends the brief of the history up to the fork point.
//
// It must never write to the source conversation, and never leave half a fork behind: a
// failure removes the new conversation, its branch, its worktree and its checkpoint refs.

import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { badInput, noSuchEntry } from '../errors.js';
import { checkRunAccount, defaultAccount, driverAccount } from '../plugins/account-store.js';
import type { HarnessDriver } from '../plugins/api.js';
import type { Registry } from '../plugins/registry.js';
import { createConversation, readConversation, type OpenConversation } from '../transcript/store.js';
import { Transcript } from '../transcript/transcript.js';
import type { AgentRef, Entry, Segment } from '../transcript/types.js';
import { deleteCheckpoints } from '../worktree/checkpoint.js';
import { copyCheckpoints } from '../worktree/checkpoint-copy.js';
import { isRepo } from '../worktree/git.js';
import { planNativeFork, type NativeSource } from './fork-native.js';
import { lastSegmentOf } from './prepare-brief.js';
import { checkForkName, makeWorktreeFork, planWorktreeFork, undoWorktreeFork, type WorktreeFork, type WorktreePlan } from './fork-worktree.js';
import { userAuthor } from './user.js';

export interface ForkOptions {
  /** Fork into a new git worktree on branch baton/<name> instead of a tab in the same directory. */
  worktree?: boolean;
  /** The agent the fork continues with (default: the one that ran the fork point). */
  agent?: string;
  /** The account it runs under (`default`: the CLI's own configuration; default: the one that agent ran under here, else its default account). */
  account?: string;
  /** With worktree: the branch is baton/<name>, the directory <repo>-<name>. Default: the new id. */
  name?: string;
  /** The known drivers: needed with agent, and for a native fork (without it the fork is a replay). */
  registry?: Registry;
  env: NodeJS.ProcessEnv;
  now?: () => Date;
}

export interface ForkResult {
  id: string;
  title: string;
  /** Where the fork lives: the source's directory, or its worktree. */
  cwd: string;
  forkedFrom: { conversation: string; seq: number };
  /** Source entries the fork holds. */
  entries: number;
  /** The agent the next `baton chat --conversation <id>` runs. */
  agent?: AgentRef;
  /** The account the fork's agent runs under, when it is not the CLI's own configuration. */
  account?: string;
  /** The agent was chosen with --agent: a handoff entry records it. */
  switched: boolean;
  /** Checkpoint refs of the copied entries now also held under the fork's id. */
  checkpointsCopied: number;
  worktree?: WorktreeFork;
  /**
   * How the fork's first turn gets the history: `native` forks the agent's own session
   * (`nativeSession`), `replay` sends a brief of the history up to the fork point (`replayReason` says why).
   */
  mode: 'native' | 'replay';
  nativeSession?: NativeSource;
  replayReason?: string;
}

/** The fork point must be an entry a reader sees; exit 9 (noSuchEntry) otherwise. */
function checkForkPoint(src: OpenConversation, atSeq: number): void {
  const t = src.transcript;
  const visible = t.visible();
  const range = visible.length
    ? `give a seq from ${visible[0]!.seq} to ${visible.at(-1)!.seq} (see baton transcript show ${src.id})`
    : 'the conversation has no entries yet';
  if (!Number.isSafeInteger(atSeq) || atSeq < 1 || !t.entry(atSeq)) {
    throw noSuchEntry(`--at ${atSeq} is not an entry of conversation ${src.id}`, range);
  }
  if (!visible.some((e) => e.seq === atSeq)) {
    throw noSuchEntry(
      `#${atSeq} of conversation ${src.id} is hidden by a reset`,
      `fork at an entry that is shown (baton transcript show ${src.id}), or undo the reset first: baton reset ${src.id} --undo`,
    );
  }
}

/** The agent (and account) to switch to, or undefined when the fork keeps the ones that ran the fork point. */
function chooseAgent(opts: ForkOptions, segments: readonly Segment[], current: Segment | undefined): ForkTarget | undefined {
  if (opts.agent === undefined && opts.account === undefined) return undefined;
  if (!opts.registry) throw new Error('forkConversation: an agent was given without a registry');
  const name = opts.agent ?? current?.harness;
  if (name === undefined) throw badInput('no agent ran the conversation up to the fork point, so --account needs --agent', 'give --agent NAME too');
  const driver = opts.registry.get(name);
  if (opts.account !== undefined) checkRunAccount(driver, opts.account, opts.env);
  const before = lastSegmentOf(segments, driver.name);
  const account =
    opts.account !== undefined
      ? driverAccount(opts.account)
      : driver.capabilities.accounts
        ? (before?.account ?? driverAccount(defaultAccount(opts.env, driver.name)))
        : undefined;
  if (current?.harness === driver.name && current.account === account) return undefined;
  const model = before?.model ?? opts.registry.settings(driver.name).model ?? driver.defaultModel ?? 'default';
  return { harness: driver.name, model, ...(account ? { account } : {}) };
}

/** An agent the fork continues with, and the account it runs under (absent: the CLI's own configuration). */
type ForkTarget = AgentRef & { account?: string };

/**
 * Creates the fork of conversation `sourceId` at entry `atSeq` (see the module comment).
 * Bad input is exit 2 and makes nothing: an entry that does not exist or is hidden, an
 * unknown agent, --name without --worktree, and every worktree check of planWorktreeFork.
 */
export async function forkConversation(home: string, sourceId: string, atSeq: number, opts: ForkOptions): Promise<ForkResult> {
  if (opts.name !== undefined) {
    if (!opts.worktree)
      throw badInput(
        "--name names the fork's branch and worktree, so it needs --worktree",
        `baton fork ${sourceId} --at ${atSeq} --worktree --name ${opts.name}`,
      );
    checkForkName(opts.name);
  }
  const src = await readConversation(home, sourceId);
  try {
    const p = await planFork(src, atSeq, opts);
    const baseBranch = p.worktree ? (p.worktree.base.branch ?? p.worktree.base.commit) : src.meta.data.baseBranch;
    const title = `${src.meta.data.title || 'untitled'} (fork at #${atSeq})`;
    const forkedFrom = { conversation: src.id, seq: atSeq };
    const conv = await createConversation(home, {
      cwd: src.meta.data.cwd,
      title,
      user: userAuthor(opts.env),
      ...(baseBranch ? { baseBranch } : {}),
      entries: p.entries,
      forkedFrom,
      ...(opts.now ? { now: opts.now } : {}),
    });
    let made: WorktreeFork | undefined;
    let carried: { undo(): Promise<void> } | undefined;
    try {
      if (p.worktree) {
        made = await makeWorktreeFork(p.worktree, conv.id, atSeq, opts.name);
        await conv.meta.update({ cwd: made.cwd, worktreeBranch: made.branch });
        carried = await carryNativeSession(p, opts.env, src.meta.data.cwd, made.cwd);
      }
      const checkpointsCopied = await holdCheckpoints(conv, p.entries, p.worktree);
      recordForkStart(conv.transcript, src.id, atSeq, p, made);
      const agent = p.target
        ? { harness: p.target.harness, model: p.target.model }
        : p.current
          ? { harness: p.current.harness, model: p.current.model }
          : undefined;
      if (agent) await conv.meta.update({ lastAgent: agent });
      await conv.close();
      const result: ForkResult = {
        id: conv.id,
        title,
        cwd: made?.cwd ?? src.meta.data.cwd,
        forkedFrom,
        entries: p.entries.length,
        switched: !!p.target,
        checkpointsCopied,
        mode: p.native ? 'native' : 'replay',
      };
      if (p.native) result.nativeSession = p.native;
      else result.replayReason = p.replayReason;
      if (agent) result.agent = agent;
      const account = p.target ? p.target.account : p.current?.account;
      if (account) result.account = account;
      if (made) result.worktree = made;
      return result;
    } catch (err) {
      await carried?.undo().catch(() => undefined);
      if (p.worktree) await undoWorktreeFork(p.worktree, conv.id, made);
      else await dropCopiedCheckpoints(conv);
      await conv.close().catch(() => undefined);
      rmSync(conv.dir, { recursive: true, force: true });
      throw err;
    }
  } finally {
    await src.close();
  }
}

/** What the fork will be, decided (and checked) before anything is made. */
interface ForkPlan {
  /** The source's entries the fork holds. */
  entries: Entry[];
  /** The segment of the fork point. */
  current: Segment | undefined;
  /** The agent (or account) chosen with --agent or --account, when it is not the fork point's. */
  target: ForkTarget | undefined;
  worktree: WorktreePlan | undefined;
  /** The agent session the first turn forks; unset for a replay, whose reason `replayReason` says. */
  native?: NativeSource;
  nativeDriver?: HarnessDriver;
  replayReason?: string;
}

async function planFork(src: OpenConversation, atSeq: number, opts: ForkOptions): Promise<ForkPlan> {
  checkForkPoint(src, atSeq);
  const entries: Entry[] = src.transcript.visible().filter((e) => e.seq <= atSeq && e.kind !== 'cursor' && e.kind !== 'agent_session');
  // The segments as the fork will derive them from its entries (a handoff hidden by a reset is not one).
  const segments = new Transcript({ id: src.id, entries }).segments;
  const current = segments.at(-1);
  const target = chooseAgent(opts, segments, current);
  const worktree = opts.worktree ? await planWorktreeFork(src, atSeq, opts.env, opts.name) : undefined;
  const nativePlan = await planNativeFork({
    source: src.transcript,
    atSeq,
    current,
    switchTo: target,
    registry: opts.registry,
    worktree: !!worktree,
    env: opts.env,
    cwd: src.meta.data.cwd,
  });
  const how = nativePlan.native ? { native: nativePlan.native, nativeDriver: nativePlan.driver } : { replayReason: nativePlan.reason };
  return { entries, current, target, worktree, ...how };
}

/**
 * The CLI files sessions by directory: the worktree's must hold the session for the fork to
 * find it. One that cannot be carried there makes the fork a replay, saying why.
 */
async function carryNativeSession(p: ForkPlan, env: NodeJS.ProcessEnv, fromCwd: string, toCwd: string): Promise<{ undo(): Promise<void> } | undefined> {
  const n = p.native;
  if (!n || !p.nativeDriver?.carrySession) return undefined;
  try {
    return await p.nativeDriver.carrySession({ env, session: n.agentSession, cwd: fromCwd, toCwd, ...(n.account ? { account: n.account } : {}) });
  } catch (err) {
    p.replayReason = `${p.nativeDriver.title}'s session ${n.agentSession} could not be carried into the worktree (${(err as Error).message})`;
    p.native = undefined;
    return undefined;
  }
}

/** The fork's first entries: how its first turn gets the history, and the chosen agent's segment. */
function recordForkStart(t: Transcript, sourceId: string, atSeq: number, p: ForkPlan, made: WorktreeFork | undefined): void {
  const where = made ? ` into the git worktree ${made.path} (branch ${made.branch})` : '';
  t.apply({
    type: 'notice',
    text: p.native
      ? `Forked from conversation ${sourceId} at #${atSeq}${where}. The first message forks ${p.native.harness}'s own session ${p.native.agentSession}, which holds the conversation up to #${atSeq}; that session itself is left as it was.`
      : `Forked from conversation ${sourceId} at #${atSeq}${where}. The first message replays the conversation up to #${atSeq} with a brief: ${p.replayReason}.`,
  });
  // The fork's first turn forks this session (a cursor marked fork), never continues it.
  if (p.native) t.confirmCursor(p.native.harness, p.native.agentSession, atSeq, { fork: true, account: p.native.account });
  if (p.target) {
    // The fork's current segment is the chosen agent, so a plain `baton chat --conversation`
    // runs it. Nothing was sent yet: a fresh handoff with no brief; the brief goes with the
    // first message.
    const { harness, model, account } = p.target;
    t.startSegment({ harness, model, ...(account ? { account } : {}), switchId: `fork-${randomUUID()}`, mode: 'fresh', briefChars: 0 });
  }
}

/** The copied entries' checkpoints, held under the fork's id in the repository (if there is one). */
async function holdCheckpoints(conv: OpenConversation, entries: readonly Entry[], plan: WorktreePlan | undefined): Promise<number> {
  const dir = plan?.root ?? conv.meta.data.cwd;
  if (!plan && !(await isRepo(dir))) return 0;
  const list = entries.flatMap((e) => (e.kind === 'user_message' && e.checkpoint ? [{ seq: e.seq, sha: e.checkpoint }] : []));
  return copyCheckpoints(dir, conv.id, list);
}

async function dropCopiedCheckpoints(conv: OpenConversation): Promise<void> {
  const dir = conv.meta.data.cwd;
  if (!(await isRepo(dir).catch(() => false))) return;
  await deleteCheckpoints(dir, conv.id).catch(() => undefined);
}
