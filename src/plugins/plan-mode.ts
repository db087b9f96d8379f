// The plan instruction, for a driver whose CLI has no plan mode of its own (or whose own
// does not say it to the model): put before the user's message in plan mode. Words only; what
// enforces plan mode is the driver's (a read-only sandbox, writes denied), never this text.

export const PLAN_INSTRUCTION =
  '[baton: plan mode] Plan only. Read what you need, then say what you would change and how, step by step. Do not edit or write files and do not run commands that change anything: such calls are refused in this mode.';

/** `prompt` with the plan instruction before it. */
export function withPlanInstruction(prompt: string): string {
  return `${PLAN_INSTRUCTION}\n\n${prompt}`;
}

/** The turn's mode, as a driver reads it: given, or full access with --yes, else default. */
export function turnMode(turn: { mode?: import('./api.js').PermissionMode | undefined; yes: boolean }): import('./api.js').PermissionMode {
  return turn.mode ?? (turn.yes ? 'full-access' : 'default');
}
