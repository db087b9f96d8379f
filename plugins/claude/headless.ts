// One Claude Code turn without a terminal: `claude -p --output-format stream-json --verbose`,
// the prompt on stdin (a brief may be 200k characters; no argv string ever carries it), the
// CLI as its own process group; `--resume ID [--fork-session]` continues or forks a native
// session. Its stdout records become events as they arrive; the final
// `result` record gives the turn's usage and cost. Failures are BatonErrors: not installed
// (3), login needed, crash, non-zero exit, timeout (4), each with the CLI's own last words.
// It never leaves a process behind: the whole group is ended on every path.

import {
  BatonError,
  cannotStartCli,
  EXIT,
  findExecutable,
  type HeadlessResult,
  type HeadlessTurn,
  lastLines,
  ResumeFailedError,
  resumeHonoured,
  runHeadlessProcess,
  turnMode,
  type TranscriptEvent,
} from '../../src/plugins/kit.js';
import { claudeAccountEnv } from './home.js';
import { anthropicUsage, ClaudeContent, resultText } from './log.js';

export const CLAUDE_INSTALL_HINT = 'npm install -g @anthropic-ai/claude-code@2.1.197';
export const CLAUDE_LOGIN_HINT =
  'set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN), or run `claude` and log in with /login (with an account: CLAUDE_CONFIG_DIR=<its dir> claude)';

const LOGIN_RE = /not logged in|please run \/login|invalid api key|oauth token (has )?expired|authentication_failed|credit balance is too low/i;
// A missing session (a uuid), or an id that is no uuid and no session title either.
const NO_SESSION_RE = /no conversation found with session id|does not match any session title/i;

/**
 * Tools allowed by name when bypassPermissions is refused: as root, Claude Code 2.1 refuses
 * it unless IS_SANDBOX=1, and baton does not claim a sandbox the user did not declare.
 */
export const ROOT_ALLOWED_TOOLS = [
  'Bash',
  'Edit',
  'MultiEdit',
  'Write',
  'NotebookEdit',
  'Read',
  'Glob',
  'Grep',
  'LS',
  'WebFetch',
  'WebSearch',
  'TodoWrite',
  'Task',
];

/** The argv of a headless turn (the prompt is not in it: it goes on stdin). */
export function headlessArgs(turn: Pick<HeadlessTurn, 'model' | 'resume' | 'fork' | 'yes' | 'mode' | 'args' | 'env'>, isRoot: boolean): string[] {
  const args = ['-p', '--output-format', 'stream-json', '--verbose'];
  if (turn.model) args.push('--model', turn.model);
  if (turn.resume) {
    args.push('--resume', turn.resume);
    // A new session holding a copy of the old one's history; the old log is not written to.
    if (turn.fork) args.push('--fork-session');
  }
  const mode = turnMode(turn);
  if (mode === 'full-access') {
    if (isRoot && !turn.env.IS_SANDBOX) args.push('--allowedTools', ROOT_ALLOWED_TOOLS.join(','));
    else args.push('--permission-mode', 'bypassPermissions');
  } else if (mode === 'plan') args.push('--permission-mode', 'plan');
  else if (mode === 'accept-edits') args.push('--permission-mode', 'acceptEdits');
  args.push(...(turn.args ?? []));
  return args;
}

const isRootUser = () => typeof process.getuid === 'function' && process.getuid() === 0;

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null;

export async function runClaudeTurn(turn: HeadlessTurn): Promise<HeadlessResult> {
  const env = { ...turn.env, ...claudeAccountEnv(turn.env, turn.account) };
  const path = findExecutable('claude', env, turn.cwd);
  if (!path) throw new BatonError('Claude Code is not installed (no claude on PATH)', EXIT.agentNotInstalled, CLAUDE_INSTALL_HINT);
  const args = headlessArgs(turn, isRootUser());
  if (turn.yes && isRootUser() && !turn.env.IS_SANDBOX) {
    turn.onEvent({
      type: 'notice',
      text: `Claude Code refuses bypassPermissions as root without IS_SANDBOX=1; allowed these tools by name instead: ${ROOT_ALLOWED_TOOLS.join(', ')}`,
    });
  }

  const content = new ClaudeContent();
  let session: string | undefined;
  let result: Rec | undefined;
  let apiError: string | undefined;
  let loginNeeded = false;
  const emit = (e: TranscriptEvent) => turn.onEvent(e);
  const onRecord = (r: Rec) => {
    if (typeof r.session_id === 'string' && !session && r.type !== 'result') {
      session = r.session_id;
      emit({ type: 'session', agentSession: session });
    }
    if (r.type === 'assistant' && isRec(r.message)) {
      if (r.error !== undefined || r.message.model === '<synthetic>') {
        const text = resultText(r.message.content);
        if (r.error === 'authentication_failed' || LOGIN_RE.test(text)) loginNeeded = true;
        else if (text) apiError = text;
        return;
      }
      for (const e of content.assistant(r.message)) emit(e);
    } else if (r.type === 'user' && isRec(r.message)) {
      // The prompt itself is baton's; only tool results come back from here.
      for (const e of content.user(r.message)) if (e.type !== 'user_text') emit(e);
    } else if (r.type === 'result') {
      result = r;
    }
  };
  const exit = await runHeadlessProcess(path, args, turn, {
    env,
    graceMs: 1500,
    stdin: turn.prompt,
    onRecord,
    cannotStart: cannotStartCli('Claude Code', path, CLAUDE_INSTALL_HINT),
  });
  const tail = () => lastLines(exit.stderr);

  if (exit.timedOut) {
    throw new BatonError(
      `Claude Code did not finish the turn within ${seconds(turn.timeoutMs)} s; its processes were ended`,
      EXIT.agentFailed,
      tail() ? `Claude Code said:\n${tail()}` : 'try again, or allow more time',
    );
  }
  if (exit.aborted) {
    emit({ type: 'notice', text: 'turn cancelled' });
    return { agentSession: session, resumed: resumeHonoured(turn, session), stopReason: 'cancelled' };
  }
  const errors: string[] = Array.isArray(result?.errors) ? result!.errors.map(String) : [];
  const said = [typeof result?.result === 'string' ? result.result : '', ...errors, exit.stderr].join('\n');
  if (loginNeeded || (result?.is_error && LOGIN_RE.test(said))) {
    throw new BatonError('Claude Code needs a login', EXIT.agentFailed, CLAUDE_LOGIN_HINT);
  }
  if (turn.resume && NO_SESSION_RE.test(said)) {
    // Claude Code checks the session before it sends anything to the model.
    throw new ResumeFailedError(turn.resume, `Claude Code has no conversation with that id (claude -p --resume${turn.fork ? ' --fork-session' : ''})`);
  }
  if (!result || result.is_error || exit.code !== 0) {
    const how = exit.signal ? `was killed by ${exit.signal}` : exit.code !== 0 ? `exited with code ${exit.code}` : 'reported an error';
    const why = apiError ?? (errors.join('; ') || (typeof result?.result === 'string' && result.is_error ? result.result : ''));
    throw new BatonError(`Claude Code ${how} during the turn${why ? `: ${why}` : ''}`, EXIT.agentFailed, tail() ? `Claude Code said:\n${tail()}` : undefined);
  }
  if (typeof result.session_id === 'string' && !session) {
    session = result.session_id;
    emit({ type: 'session', agentSession: session });
  }
  if (result.subtype && result.subtype !== 'success') emit({ type: 'notice', text: `Claude Code stopped early: ${result.subtype}` });
  // Without --yes, claude -p denies tools that need approval; the result lists each denial.
  for (const d of Array.isArray(result.permission_denials) ? (result.permission_denials as Rec[]) : []) {
    const name = String(d?.tool_name ?? 'a tool');
    const toolCallId = typeof d?.tool_use_id === 'string' ? d.tool_use_id : undefined;
    emit({
      type: 'approval',
      ...(toolCallId ? { toolCallId } : {}),
      decision: 'denied',
      detail: `${name}: denied. A headless turn does not ask; run again with --yes to allow tool use.`,
    });
  }
  const usage = anthropicUsage(result.usage);
  const end: TranscriptEvent = { type: 'turn_end' };
  if (usage) end.usage = usage;
  if (typeof result.total_cost_usd === 'number') end.costUsd = result.total_cost_usd;
  emit(end);
  const stopReason = typeof result.stop_reason === 'string' ? result.stop_reason : undefined;
  return { agentSession: session, resumed: resumeHonoured(turn, session), ...(stopReason ? { stopReason } : {}) };
}

function seconds(ms: number): number {
  return Math.round(ms / 100) / 10;
}
