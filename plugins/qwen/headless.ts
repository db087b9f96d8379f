// One Qwen Code turn without a terminal: `qwen --output-format stream-json`, the prompt on
// stdin (qwen reads its prompt from a non-TTY stdin; a brief never goes through argv), the
// CLI as its own process group, auto-update forced off (home.ts). Its stdout records
// (Anthropic-style message blocks) become events as they arrive; the `result` record gives
// the turn's usage. Failures are BatonErrors: not installed (3), login needed, crash,
// non-zero exit, timeout (4), each with the CLI's own last words.
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
  runHeadlessProcess,
  turnMode,
  type TranscriptEvent,
  type Usage,
} from '../../src/plugins/kit.js';
import { qwenRunEnv } from './home.js';

export const QWEN_INSTALL_HINT = 'npm install -g @qwen-code/qwen-code@0.15.10';
export const QWEN_LOGIN_HINT =
  'for an OpenAI-compatible endpoint set OPENAI_API_KEY (with OPENAI_BASE_URL and OPENAI_MODEL) and security.auth.selectedType "openai" in ~/.qwen/settings.json (or pass --auth-type openai as an extra argument); or run `qwen auth` / `qwen` to log in with Qwen OAuth';

const LOGIN_RE =
  /missing api key|no auth type|auth(entication)? (is )?required|not authenticated|invalid api key|incorrect api key|unauthori[sz]ed|\b401\b|please (log ?in|authenticate)/i;
const NO_SESSION_RE = /no saved session found/i;
const API_ERROR_RE = /^\s*\[API Error: ([\s\S]*)\]\s*$/;

/** The argv of a headless turn (the prompt is not in it: it goes on stdin). */
export function qwenHeadlessArgs(turn: Pick<HeadlessTurn, 'model' | 'resume' | 'yes' | 'mode' | 'args'>): string[] {
  const args = ['--output-format', 'stream-json'];
  if (turn.model) args.push('--model', turn.model);
  if (turn.resume) args.push('--resume', turn.resume);
  // Default: qwen's non-interactive default: tools that need approval are not offered. Plan
  // and auto-edit are its own modes.
  const mode = turnMode(turn);
  if (mode === 'full-access') args.push('--yolo');
  else if (mode === 'plan') args.push('--approval-mode', 'plan');
  else if (mode === 'accept-edits') args.push('--approval-mode', 'auto-edit');
  args.push(...(turn.args ?? []));
  return args;
}

type Rec = Record<string, unknown>;

const isObj = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);

function blockText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return content === undefined || content === null ? '' : JSON.stringify(content);
  return content
    .map((b) => (isObj(b) && b.type === 'text' ? String(b.text ?? '') : ''))
    .filter(Boolean)
    .join('\n');
}

function resultUsage(u: unknown): Usage | undefined {
  if (!isObj(u)) return undefined;
  const n = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
  const out: Usage = { inputTokens: n(u.input_tokens), outputTokens: n(u.output_tokens) };
  if (n(u.cache_read_input_tokens)) out.cachedInputTokens = n(u.cache_read_input_tokens);
  return out;
}

export async function runQwenTurn(turn: HeadlessTurn): Promise<HeadlessResult> {
  const path = findExecutable('qwen', turn.env, turn.cwd);
  if (!path) throw new BatonError('Qwen Code is not installed (no qwen on PATH)', EXIT.agentNotInstalled, QWEN_INSTALL_HINT);
  const env = { ...turn.env, ...qwenRunEnv(turn.env, turn.account) };

  const emit = (e: TranscriptEvent) => turn.onEvent(e);
  const toolNames = new Map<string, string>();
  let session: string | undefined;
  let result: Rec | undefined;
  let apiError: string | undefined;
  const onRecord = (r: Rec) => {
    if (typeof r.session_id === 'string' && !session && r.type !== 'result') {
      session = r.session_id;
      emit({ type: 'session', agentSession: session });
    }
    if (r.type === 'assistant' && isObj(r.message) && Array.isArray(r.message.content)) {
      const messageId = typeof r.message.id === 'string' ? r.message.id : undefined;
      for (const b of r.message.content) {
        if (!isObj(b)) continue;
        // qwen -p reports a failed model call as the reply text, and exits 0.
        if (b.type === 'text' && typeof b.text === 'string' && API_ERROR_RE.test(b.text)) apiError = API_ERROR_RE.exec(b.text)![1]!;
        else if (b.type === 'text' && typeof b.text === 'string' && b.text)
          emit(messageId ? { type: 'agent_text', text: b.text, messageId } : { type: 'agent_text', text: b.text });
        else if (b.type === 'thinking' && typeof b.thinking === 'string' && b.thinking)
          emit(messageId ? { type: 'reasoning', text: b.thinking, messageId } : { type: 'reasoning', text: b.thinking });
        else if (b.type === 'tool_use' && typeof b.id === 'string') {
          const name = typeof b.name === 'string' ? b.name : 'tool';
          toolNames.set(b.id, name);
          emit({ type: 'tool_call', toolCallId: b.id, toolName: name, input: b.input ?? {} });
        }
      }
    } else if (r.type === 'user' && isObj(r.message) && Array.isArray(r.message.content)) {
      for (const b of r.message.content) {
        if (!isObj(b) || b.type !== 'tool_result' || typeof b.tool_use_id !== 'string') continue;
        emit({
          type: 'tool_result',
          toolCallId: b.tool_use_id,
          toolName: toolNames.get(b.tool_use_id) ?? 'tool',
          output: blockText(b.content),
          isError: b.is_error === true,
        });
      }
    } else if (r.type === 'result') {
      result = r;
    }
  };
  const exit = await runHeadlessProcess(path, qwenHeadlessArgs(turn), turn, {
    env,
    graceMs: 1500,
    stdin: turn.prompt,
    onRecord,
    cannotStart: cannotStartCli('Qwen Code', path, QWEN_INSTALL_HINT),
  });
  const tail = lastLines(exit.stderr);
  const said = (hint?: string) => (tail ? `Qwen Code said:\n${tail}` : hint);

  if (exit.timedOut) {
    throw new BatonError(
      `Qwen Code did not finish the turn within ${Math.round(turn.timeoutMs / 100) / 10} s; its processes were ended`,
      EXIT.agentFailed,
      said('try again, or allow more time'),
    );
  }
  if (exit.aborted) {
    emit({ type: 'notice', text: 'turn cancelled' });
    return { agentSession: session, resumed: !!turn.resume && session === turn.resume, stopReason: 'cancelled' };
  }
  const errorText = isObj(result?.error) && typeof result!.error.message === 'string' ? result!.error.message : apiError ? `API error ${apiError}` : '';
  if (turn.resume && NO_SESSION_RE.test(`${errorText}\n${exit.stderr}`)) {
    // Qwen Code looks the session up before it sends anything to the model.
    throw new ResumeFailedError(turn.resume, 'Qwen Code has no saved session with that id (qwen --resume)');
  }
  if (!result || result.is_error || exit.code !== 0 || apiError !== undefined) {
    if (LOGIN_RE.test(`${errorText}\n${exit.stderr}`))
      throw new BatonError(`Qwen Code needs a login${errorText ? `: ${errorText}` : ''}`, EXIT.agentFailed, QWEN_LOGIN_HINT);
    const how = exit.signal ? `was killed by ${exit.signal}` : exit.code !== 0 ? `exited with code ${exit.code}` : 'reported an error';
    throw new BatonError(`Qwen Code ${how} during the turn${errorText ? `: ${errorText}` : ''}`, EXIT.agentFailed, said());
  }
  if (typeof result.session_id === 'string' && !session) {
    session = result.session_id;
    emit({ type: 'session', agentSession: session });
  }
  for (const d of Array.isArray(result.permission_denials) ? result.permission_denials : []) {
    if (!isObj(d)) continue;
    const name = String(d.tool_name ?? 'a tool');
    emit({
      type: 'approval',
      ...(typeof d.tool_use_id === 'string' ? { toolCallId: d.tool_use_id } : {}),
      decision: 'denied',
      detail: `${name}: denied. A headless turn does not ask; run again with --yes to allow tool use.`,
    });
  }
  if (result.subtype && result.subtype !== 'success') emit({ type: 'notice', text: `Qwen Code stopped early: ${result.subtype}` });
  const usage = resultUsage(result.usage);
  emit(usage ? { type: 'turn_end', usage } : { type: 'turn_end' });
  return { agentSession: session, resumed: !!turn.resume && session === turn.resume };
}
