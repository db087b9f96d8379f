// One codex turn without a terminal: `codex exec --json … -` in its own process group, the
// prompt on stdin (any size: never an argv string; `-` also keeps codex from waiting for
// more input), events streamed as the JSON lines arrive. Resume is `exec … resume <id> -`
// and counts as honoured only when codex reports that same thread id; a fork is
// `exec … fork <id> -` and is honoured when codex reports a new one. Failures are
// BatonErrors: not installed (3), a session codex cannot find (ResumeFailedError, before
// anything reached the model), login trouble, crash, non-zero exit or timeout (4), with
// codex's own last words. The whole group is always ended before this returns.

import {
  BatonError,
  EXIT,
  findExecutable,
  type HeadlessResult,
  type HeadlessTurn,
  ResumeFailedError,
  resumeHonoured,
  runHeadlessProcess,
  turnMode,
  withPlanInstruction,
} from '../../src/plugins/kit.js';
import { CodexExecMapper } from './headless-events.js';
import { codexAccountEnv, codexHome } from './home.js';
import { endCodexDaemons } from './leftovers.js';

export const CODEX_INSTALL_HINT = 'npm install -g @openai/codex@0.171.0';
export const CODEX_LOGIN_HINT =
  'run `codex login` (ChatGPT or an API key), or set the API key your model provider in $CODEX_HOME/config.toml reads (env_key; OPENAI_API_KEY by default)';

// 401s, a missing provider key, an expired ChatGPT login.
const LOGIN_RE =
  /\b401\b|unauthorized|missing environment variable|not logged in|codex login|invalid[_ ]api[_ ]key|incorrect api key|refresh token|please log ?in/i;
const RESUME_GONE_RE = /no rollout found|thread\/(resume|fork) failed|session not found|no (such )?(thread|session)/i;

/** The argv after `codex` for one exec turn (the prompt itself always goes on stdin). */
export function codexExecArgs(turn: Pick<HeadlessTurn, 'yes' | 'mode' | 'model' | 'args' | 'resume' | 'fork'>): string[] {
  const argv = ['exec', '--json', '--skip-git-repo-check'];
  // Default: codex exec's own (approval "never" inside its workspace-write sandbox): commands
  // run sandboxed, anything needing more is refused, nobody is asked. Plan: the read-only
  // sandbox, so no edit or command can change a file (codex exec has no plan mode: the plan
  // instruction goes with the prompt).
  const mode = turnMode(turn);
  if (mode === 'full-access') argv.push('--dangerously-bypass-approvals-and-sandbox');
  else if (mode === 'plan') argv.push('--sandbox', 'read-only');
  else if (mode === 'accept-edits') argv.push('--sandbox', 'workspace-write');
  if (turn.model) argv.push('-m', turn.model);
  argv.push(...(turn.args ?? []));
  // Exec-level options stay before `resume`/`fork`: codex applies them to that thread too.
  // `fork` makes a new thread holding a copy of the old one's history; the old rollout is
  // not written to.
  if (turn.resume) argv.push(turn.fork ? 'fork' : 'resume', turn.resume);
  argv.push('-');
  return argv;
}

/** codex's last words on stderr, without its Rust backtrace and its stdin notice. */
function lastWords(stderr: string, n = 12): string {
  const cut = stderr.split(/\n\s*Stack backtrace:/)[0]!;
  return cut
    .replace(/^Reading (additional )?(input|prompt) from stdin\.*\s*$/gm, '')
    .trim()
    .split('\n')
    .slice(-n)
    .join('\n');
}

export async function runCodexTurn(turn: HeadlessTurn): Promise<HeadlessResult> {
  const env: NodeJS.ProcessEnv = { ...turn.env, ...codexAccountEnv(turn.env, turn.account) };
  const path = findExecutable('codex', env, turn.cwd);
  if (!path) throw new BatonError('codex is not installed (no `codex` on PATH)', EXIT.agentNotInstalled, CODEX_INSTALL_HINT);
  if (turn.signal?.aborted) throw new BatonError('codex turn cancelled before it started', EXIT.agentFailed);

  const mapper = new CodexExecMapper(turn.onEvent);
  const started = new Date();
  const info = await runHeadlessProcess(path, codexExecArgs(turn), turn, {
    env,
    graceMs: 2000,
    // Tools codex started in its group end with it.
    sweepGraceMs: 1000,
    stdin: turnMode(turn) === 'plan' ? withPlanInstruction(turn.prompt) : turn.prompt,
    onRecord: (record) => mapper.feed(record),
    cannotStart: (err) =>
      err.code === 'ENOENT' && !findExecutable('codex', env, turn.cwd)
        ? new BatonError('codex is not installed', EXIT.agentNotInstalled, CODEX_INSTALL_HINT)
        : new BatonError(`codex could not be started: ${err.message}`, EXIT.agentFailed, err.code === 'ENOENT' ? `is ${turn.cwd} a directory?` : undefined),
  });

  // A process of codex's own that left the group (its app-server daemon: leftovers.ts) is
  // ended too: once, in a full run under load, one outlived `codex exec` in the test's home.
  await endCodexDaemons({ codexHome: codexHome(turn.env, turn.account), startedAfter: started });
  const stderr = info.stderr;
  const said = lastWords(stderr);
  if (info.timedOut) {
    throw new BatonError(`codex did not finish within ${Math.round(turn.timeoutMs / 1000)} s and was stopped`, EXIT.agentFailed, said || mapper.lastError);
  }
  if (info.aborted) {
    // Like every driver: a turn the user cancelled ends, it does not fail; what came is kept.
    turn.onEvent({ type: 'notice', text: 'turn cancelled' });
    return {
      ...(mapper.threadId ? { agentSession: mapper.threadId } : {}),
      resumed: resumeHonoured(turn, mapper.threadId),
      stopReason: 'cancelled',
    };
  }
  const failed = info.code !== 0 || mapper.failure !== undefined;
  if (failed) {
    const lines = said.split('\n').filter(Boolean);
    const reason = mapper.failure ?? lines.find((l) => /error/i.test(l)) ?? lines[lines.length - 1] ?? '';
    if (turn.resume && !mapper.threadId && RESUME_GONE_RE.test(`${stderr}\n${reason}`)) {
      throw new ResumeFailedError(turn.resume, reason.replace(/^Error:\s*/, '').trim() || 'codex found no such session');
    }
    if (LOGIN_RE.test(`${reason}\n${stderr}`)) {
      throw new BatonError(`codex needs a login or an API key: ${reason}`, EXIT.agentFailed, CODEX_LOGIN_HINT);
    }
    const how = info.signal ? `was killed by ${info.signal}` : `exited with code ${info.code}`;
    throw new BatonError(`codex ${how}${reason ? `: ${reason}` : ''}`, EXIT.agentFailed, said || undefined);
  }
  if (!mapper.completed) turn.onEvent({ type: 'turn_end' });
  return {
    ...(mapper.threadId ? { agentSession: mapper.threadId } : {}),
    // A fork is honoured when codex ran the turn in a new thread (it fails with "no rollout
    // found" rather than starting an empty one).
    resumed: resumeHonoured(turn, mapper.threadId),
    stopReason: 'end_turn',
  };
}
