// baton's four permission modes over an ACP session: which of the agent's own modes (the
// `modes` its session/new or session/load advertised) each one is, and what baton itself
// enforces. A mode the agent has is set natively (session/set_mode); one it lacks is
// emulated by baton: plan by the plan instruction before each message and every change
// refused; accept-edits and full-access by baton answering the agent's permission requests
// for it. In plan baton refuses every edit and command the agent asks about and every client
// file write, native or not, so an approval in plan can never change a file. Pure.

import type { PermissionMode } from './api.js';
import type { RequestPermissionRequest } from './acp-client.js';

export interface AgentMode {
  id: string;
  name?: string;
}

/** The agents' names for each of baton's modes, as advertised by Gemini CLI, Qwen Code, claude-code-acp and codex-acp. */
const NATIVE_IDS: Record<PermissionMode, readonly string[]> = {
  default: ['default', 'ask', 'auto'],
  'accept-edits': ['acceptEdits', 'autoEdit', 'auto-edit', 'auto_edit', 'accept-edits'],
  plan: ['plan', 'read-only'],
  'full-access': ['yolo', 'bypassPermissions', 'full-access'],
};

/** The order Shift-Tab steps through in a view; full-access only when the tab started in it. */
export const CYCLE: readonly PermissionMode[] = ['default', 'accept-edits', 'plan'];

/** The agent's mode id for `mode`, or undefined when it has none (baton emulates it). */
export function nativeModeId(available: readonly AgentMode[] | undefined, mode: PermissionMode): string | undefined {
  if (!available?.length) return undefined;
  for (const id of NATIVE_IDS[mode]) if (available.some((m) => m.id === id)) return id;
  return undefined;
}

/** baton's mode for an agent's own mode id (the agent changed it itself, e.g. leaving plan), if it is one of the four. */
export function batonModeOf(modeId: string): PermissionMode | undefined {
  for (const [mode, ids] of Object.entries(NATIVE_IDS)) if (ids.includes(modeId)) return mode as PermissionMode;
  return undefined;
}

/** The mode after `mode` for Shift-Tab. */
export function nextMode(mode: PermissionMode, withFullAccess: boolean): PermissionMode {
  const order = withFullAccess ? [...CYCLE, 'full-access' as const] : CYCLE;
  const i = order.indexOf(mode);
  return order[(i + 1) % order.length]!;
}

/** How a mode is named in the status line and the transcript. */
export function modeLabel(mode: PermissionMode, emulated: boolean): string {
  return `${mode}${emulated && mode !== 'default' ? ' (emulated)' : ''}`;
}

/** Tool kinds that change something: refused in plan, whatever the user answers. */
const CHANGES = new Set(['edit', 'delete', 'move', 'execute']);

/** Whether a permission request asks to change something (an unknown kind counts, except reads, searches and thoughts). */
export function changesSomething(request: RequestPermissionRequest): boolean {
  const kind = request.toolCall.kind ?? 'other';
  return CHANGES.has(kind) || kind === 'other';
}

/** An option chosen by baton (none: the request is answered cancelled), and why, for the view. */
export type AutoAnswer = { optionId: string | undefined; why: string } | undefined;

/**
 * The answer baton gives a permission request itself in `mode`, without asking the user:
 * in plan a request to change something is rejected (native plan too); where baton emulates
 * accept-edits an edit is allowed once, where it emulates full-access anything is. Undefined:
 * the user answers on a card.
 */
export function autoAnswer(request: RequestPermissionRequest, mode: PermissionMode, emulated: boolean): AutoAnswer {
  const pick = (kinds: string[]) => kinds.map((k) => request.options.find((o) => o.kind === k)).find(Boolean)?.optionId;
  if (mode === 'plan' && changesSomething(request)) {
    return { optionId: pick(['reject_once', 'reject_always']), why: 'plan mode: baton refused it' };
  }
  if (!emulated) return undefined;
  const kind = request.toolCall.kind ?? 'other';
  if (mode === 'full-access' || (mode === 'accept-edits' && (kind === 'edit' || kind === 'delete' || kind === 'move'))) {
    const id = pick(['allow_once', 'allow_always']);
    return id ? { optionId: id, why: `${mode} mode: baton allowed it` } : undefined;
  }
  return undefined;
}
