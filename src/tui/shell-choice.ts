// The picker's "Plain shell" row: the user's $SHELL (else /bin/sh) as a tab launch. Its own
// module so that what lists the picker's rows (agent-choices.ts) does not load the TUI.
import { basename } from 'node:path';
import type { PickerChoice } from './picker.js';
import type { TabLaunch } from './tab.js';

export function shellChoice(cwd: string, env: NodeJS.ProcessEnv): PickerChoice<TabLaunch> {
  const shell = env.SHELL || '/bin/sh';
  return { label: 'Plain shell', detail: shell, value: { command: shell, args: [], env: {}, cwd, agent: 'shell', title: basename(shell) } };
}
