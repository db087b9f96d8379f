// One headless opencode turn, over ACP (`opencode acp`) through baton's generic ACP
// harness. Not `opencode run`: it wraps a multi-word message in literal double quotes
// before the model sees it, and takes the message only in argv (a 200k brief does not
// fit). ACP takes the prompt over stdin, streams chunks and tool calls as they happen,
// loads an earlier session (session/load) or forks it (session/fork, which opencode 1.18
// advertises), and fails cleanly on an unknown one, which the harness turns into
// ResumeFailedError before anything reaches the model.
// baton's settings go through opencode's own variables, merged over the user's: the model
// through OPENCODE_CONFIG_CONTENT (`opencode acp` has no --model), and without --yes (full
// access) the tools that change files, run commands or reach the network are set to "ask"
// through OPENCODE_PERMISSION, so the harness can refuse them (accept-edits: edits allowed;
// plan, emulated: all refused, and the plan instruction goes with the prompt). It adds nothing else to the env.

import {
  type AcpAgentDecl,
  BatonError,
  EXIT,
  type HeadlessResult,
  type HeadlessTurn,
  ResumeFailedError,
  runAcpTurn,
  turnMode,
  withPlanInstruction,
} from '../../src/plugins/kit.js';
import { HEADLESS_ASK, OPENCODE_INSTALL_HINT, OPENCODE_LOGIN_HINT, mergeJsonVar, opencodeAccountEnv } from './home.js';

/** The ACP declaration for one turn: the env additions depend on the turn's model, account and --yes. */
export function opencodeAcpDecl(turn: Pick<HeadlessTurn, 'env' | 'cwd' | 'model' | 'account' | 'yes' | 'mode'>): { decl: AcpAgentDecl; notices: string[] } {
  const notices: string[] = [];
  const env: Record<string, string> = {
    ...opencodeAccountEnv(turn.env, turn.account),
    // opencode takes its project directory from $PWD, not from the process's cwd.
    PWD: turn.cwd,
  };
  if (turn.model) {
    const merged = mergeJsonVar(turn.env, 'OPENCODE_CONFIG_CONTENT', { model: turn.model });
    if (merged) env.OPENCODE_CONFIG_CONTENT = merged;
    else notices.push(`OPENCODE_CONFIG_CONTENT is not a JSON object baton can add to; opencode used its own model instead of ${turn.model}`);
  }
  const mode = turnMode(turn);
  if (mode !== 'full-access') {
    // Asked, so baton's harness refuses it (opencode has no plan mode of its own: in plan every
    // edit and command is refused); accept-edits lets edits go ahead.
    const permission = mode === 'accept-edits' ? { ...HEADLESS_ASK, edit: 'allow' } : { ...HEADLESS_ASK };
    const merged = mergeJsonVar(turn.env, 'OPENCODE_PERMISSION', permission);
    if (merged) env.OPENCODE_PERMISSION = merged;
    else notices.push("OPENCODE_PERMISSION is not a JSON object baton can add to; opencode's own permission settings apply to this turn");
  }
  const decl: AcpAgentDecl = {
    name: 'opencode',
    title: 'opencode',
    command: 'opencode',
    args: ['acp'],
    env,
    installHint: OPENCODE_INSTALL_HINT,
    loginHint: OPENCODE_LOGIN_HINT,
  };
  return { decl, notices };
}

export async function runOpencodeTurn(turn: HeadlessTurn): Promise<HeadlessResult> {
  const { decl, notices } = opencodeAcpDecl(turn);
  for (const text of notices) turn.onEvent({ type: 'notice', text });
  // The model is in the config already; the harness would report a model it cannot pass as unused.
  const { model: _model, ...rest } = turn;
  // Plan mode is emulated: the instruction with the prompt, and every edit and command refused (above).
  if (turnMode(turn) === 'plan') rest.prompt = withPlanInstruction(turn.prompt);
  try {
    return await runAcpTurn(decl, { ...rest, yes: turnMode(turn) === 'full-access' });
  } catch (err) {
    if (err instanceof BatonError && !(err instanceof ResumeFailedError) && LOGIN.test(err.message)) {
      throw new BatonError(`opencode needs a login: ${err.message.replace(/^opencode failed: /, '')}`, EXIT.agentFailed, OPENCODE_LOGIN_HINT);
    }
    throw err;
  }
}

/**
 * How opencode 1.18 reports a provider that wants credentials: the prompt fails with the
 * provider's own message (HTTP 401, "invalid x-api-key", "Incorrect API key provided"), or
 * the AI SDK's "API key is missing" before any request.
 */
const LOGIN = /ProviderAuthError|\b401\b|unauthori[sz]ed|api[ _-]?key|authentication/i;
