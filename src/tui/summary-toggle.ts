// The switch picker's "summary first" (issue 14 item 4 in a tab): the key that asks the tab's
// agent for a summary before the armed switch stops it, and how the compose bar names such a
// switch. Words only: the summary turn itself is the conversation layer's
// (tab-summary-turn.ts, run by the switch transaction).

import type { PickerToggle } from './picker.js';

/** The switch picker's key for a summary first (README's key table, docs/models.md). */
export const SUMMARY_KEY = 's';

/** The switch picker's toggle: `agentTitle` (the tab's agent) writes a summary before it stops. */
export function summaryToggle(agentTitle: string): PickerToggle {
  return { key: SUMMARY_KEY, label: `${agentTitle} writes a summary first, for the brief`, on: false };
}

/** The compose bar's name of an armed switch: "Codex CLI · summary first" when one is asked for. */
export function armedName(armed: { title: string; summary?: boolean }): string {
  return armed.summary ? `${armed.title} · summary first` : armed.title;
}
