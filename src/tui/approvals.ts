// Answering a tab that waits for approval without switching to it (prefix, then the
// `approvals` key): the tabs whose status is approval are listed (one is taken at once), and
// the chosen one's question is shown with its answers. In baton's own view of an ACP agent the
// answers are the keys its card lists (y, a, n, N), typed into that tab as the user would type
// them there; a CLI's own permission dialog has keys of its own, so for those tabs the only
// answer offered is to go to the tab. It reads the tabs' screens; it types nothing else.

import type { App } from './app.js';
import { choose, type KeyOption, openPicker } from './picker.js';
import type { Tab } from './tab.js';

/** What a view tab's card asks and the answers it lists, read from the tab's screen. */
export function cardOf(lines: readonly string[]): { question: string; answers: KeyOption<string>[] } | undefined {
  let at = lines.length - 1;
  while (at >= 0 && !lines[at]!.trimStart().startsWith('⚑ Permission needed:')) at--;
  if (at < 0) return undefined;
  const question = lines[at]!.trim().replace(/^⚑ Permission needed:\s*/, '');
  const keys = lines.slice(at + 1, at + 4).join(' ');
  const answers: KeyOption<string>[] = [];
  for (const m of keys.matchAll(/(?:^|\s)([yaNn]) {2}(\S.*?)(?= {3}|\s*$)/g)) answers.push({ key: m[1]!, label: m[2]!.trim(), value: m[1]! });
  return answers.length ? { question, answers } : undefined;
}

function screenOf(tab: Tab): string[] {
  const out: string[] = [];
  for (let y = 0; y < tab.pane.rows; y++) out.push(tab.pane.rowText(y));
  return out;
}

/** The approvals overlay: pick a waiting tab, then answer it (or go to it). */
export async function openApprovals(app: App): Promise<void> {
  const waiting = app.tabs.filter((t) => t.status === 'approval');
  if (!waiting.length) {
    app.showMessage('No tab is waiting for approval.');
    return;
  }
  const tab =
    waiting.length === 1
      ? waiting[0]
      : await openPicker(
          app,
          'Waiting for approval',
          waiting.map((t) => ({ label: `${app.tabs.indexOf(t) + 1}: ${t.label}`, detail: cardOf(screenOf(t))?.question ?? 'its own dialog', value: t })),
        );
  if (!tab || !app.tabs.includes(tab)) return;
  const card = cardOf(screenOf(tab));
  const go: KeyOption<string> = { key: 'enter', label: 'go to the tab', value: 'go' };
  const text = card ? `${tab.label} asks: ${card.question}` : `${tab.label} waits in its own permission dialog; its keys are its own.`;
  const answer = await choose(app, 'Approval', text, [...(card?.answers ?? []), go], { enterTakes: 'go' });
  if (answer === undefined || !app.tabs.includes(tab)) return;
  if (answer === 'go') app.select(app.tabs.indexOf(tab));
  // Typed as the user would type it in that tab, and only while it still asks.
  else if (tab.status === 'approval' && cardOf(screenOf(tab))?.question === card?.question) tab.pane.write(answer);
}
