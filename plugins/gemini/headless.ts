// One gemini turn without a terminal: `gemini -o stream-json -p …` in its own process group,
// events streamed as the JSON lines arrive. The prompt always goes on stdin with an empty
// `--prompt=`, which gemini reads in whole (up to 8 MiB): never in argv, where `ps` would show
// a brief or a message to every user of the machine. Resume is `--resume <uuid>`, honoured when gemini reports that same
// session id. Not ACP: gemini's ACP session/load is fragile in 0.61 (see docs/plugins.md).
// Failures are BatonErrors (3 not installed; ResumeFailedError; 4 with gemini's own words);
// the whole group is always ended before this returns.

import {
  BatonError,
  EXIT,
  findExecutable,
  type HeadlessResult,
  type HeadlessTurn,
  ResumeFailedError,
  runHeadlessProcess,
  turnMode,
} from '../../src/plugins/kit.js';
import { geminiAccountEnv } from './home.js';
import { GeminiStreamMapper } from './headless-events.js';

export const GEMINI_INSTALL_HINT = 'npm install -g @google/gemini-cli@0.61.0';
export const GEMINI_LOGIN_HINT =
  'set GEMINI_API_KEY (or GOOGLE_API_KEY with Vertex AI), or run `gemini` once and pick a login method; headless runs need security.auth.selectedType in ~/.gemini/settings.json';

/** gemini's exit code for a failed authentication (FatalAuthenticationError). */
const EXIT_AUTH = 41;
const LOGIN_RE =
  /GEMINI_API_KEY|GOOGLE_API_KEY|must specify the|auth(entication)? method|please (re-?)?authenticate|login required|\b40[13]\b|UNAUTHENTICATED|PERMISSION_DENIED|API key not valid/i;
const RESUME_GONE_RE = /Error resuming session|Invalid session identifier|No previous sessions found/i;
// Noise gemini prints on every run in a terminal-less environment.
const NOISE = /^(Warning: 256-color support not detected.*|Ripgrep is not available.*|YOLO mode is enabled.*|Loaded cached credentials\.?)$/;

/** argv after `gemini` for one headless turn, and what goes on stdin. */
export function geminiArgs(turn: Pick<HeadlessTurn, 'yes' | 'mode' | 'model' | 'args' | 'resume' | 'prompt'>): { argv: string[]; stdin: string } {
  const argv: string[] = [];
  // Default: gemini's non-interactive default: tools that would need approval are not
  // offered to the model at all (it cannot ask anyone). Plan and auto_edit are its own modes.
  const mode = turnMode(turn);
  if (mode === 'full-access') argv.push('--yolo');
  else if (mode === 'plan') argv.push('--approval-mode', 'plan');
  else if (mode === 'accept-edits') argv.push('--approval-mode', 'auto_edit');
  if (turn.model) argv.push('-m', turn.model);
  argv.push(...(turn.args ?? []));
  if (turn.resume) argv.push('--resume', turn.resume);
  argv.push('-o', 'stream-json');
  return { argv: [...argv, '--prompt='], stdin: turn.prompt };
}

function lastWords(stderr: string, n = 12): string {
  return stderr
    .split('\n')
    .map((l) => l.trimEnd())
    .filter((l) => l && !NOISE.test(l.trim()) && !/^\s+at /.test(l))
    .slice(-n)
    .join('\n');
}

export async function runGeminiTurn(turn: HeadlessTurn): Promise<HeadlessResult> {
  const env: NodeJS.ProcessEnv = { ...turn.env, ...geminiAccountEnv(turn.env, turn.account) };
  const path = findExecutable('gemini', env, turn.cwd);
  if (!path) throw new BatonError('gemini is not installed (no `gemini` on PATH)', EXIT.agentNotInstalled, GEMINI_INSTALL_HINT);
  if (turn.signal?.aborted) throw new BatonError('gemini turn cancelled before it started', EXIT.agentFailed);

  const { argv, stdin } = geminiArgs(turn);
  const mapper = new GeminiStreamMapper(turn.onEvent);
  const info = await runHeadlessProcess(path, argv, turn, {
    env,
    graceMs: 2000,
    // gemini relaunches itself as a child node process: the group holds both.
    sweepGraceMs: 1000,
    stdin,
    onRecord: (record) => mapper.feed(record),
    cannotStart: (err) =>
      err.code === 'ENOENT' && !findExecutable('gemini', env, turn.cwd)
        ? new BatonError('gemini is not installed', EXIT.agentNotInstalled, GEMINI_INSTALL_HINT)
        : new BatonError(`gemini could not be started: ${err.message}`, EXIT.agentFailed, err.code === 'ENOENT' ? `is ${turn.cwd} a directory?` : undefined),
  });

  const stderr = info.stderr;
  const said = lastWords(stderr);
  if (info.timedOut) {
    throw new BatonError(`gemini did not finish within ${Math.round(turn.timeoutMs / 1000)} s and was stopped`, EXIT.agentFailed, said || undefined);
  }
  if (info.aborted) {
    // Like every driver: a turn the user cancelled ends, it does not fail; what came is kept.
    turn.onEvent({ type: 'notice', text: 'turn cancelled' });
    return {
      ...(mapper.sessionId ? { agentSession: mapper.sessionId } : {}),
      resumed: turn.resume !== undefined && mapper.sessionId === turn.resume,
      stopReason: 'cancelled',
    };
  }
  if (info.code !== 0 || (mapper.status !== undefined && mapper.status !== 'success')) {
    const lines = said.split('\n').filter(Boolean);
    const reason = mapper.failure ?? lines.find((l) => /error/i.test(l)) ?? lines[0] ?? '';
    if (turn.resume && !mapper.sessionId && RESUME_GONE_RE.test(stderr)) {
      throw new ResumeFailedError(turn.resume, reason.replace(/^Error resuming session:\s*/, '').trim() || 'gemini found no such session');
    }
    if (info.code === EXIT_AUTH || LOGIN_RE.test(`${reason}\n${said}`)) {
      throw new BatonError(`gemini needs a login or an API key: ${reason}`, EXIT.agentFailed, GEMINI_LOGIN_HINT);
    }
    const how = info.signal ? `was killed by ${info.signal}` : `exited with code ${info.code}`;
    throw new BatonError(`gemini ${how}${reason ? `: ${reason}` : ''}`, EXIT.agentFailed, said || undefined);
  }
  if (mapper.status === undefined) turn.onEvent({ type: 'turn_end' });
  return {
    ...(mapper.sessionId ? { agentSession: mapper.sessionId } : {}),
    resumed: turn.resume !== undefined && mapper.sessionId === turn.resume,
    stopReason: 'end_turn',
  };
}
