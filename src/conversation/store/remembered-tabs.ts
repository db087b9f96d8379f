// The tabs baton had open in a directory, remembered so that opening baton there again offers
// them back: one small file per directory under the state dir (tabs/<hash of the dir>.json,
// 0600 in a 0700 dir), holding each tab's conversation, agent and model. It must never hold
// anything of a conversation's content, and never create the state dir just to say "none".

import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ensurePrivateDir } from '../../transcript/store.js';

export interface RememberedTab {
  conversation: string;
  agent: string;
  model?: string;
}

function tabsFile(home: string, cwd: string): string {
  const key = createHash('sha256').update(cwd).digest('hex').slice(0, 16);
  return join(home, 'tabs', `${key}.json`);
}

/** Remembers `tabs` as the ones open in `cwd` (replacing what was remembered). */
export async function rememberTabs(home: string, cwd: string, tabs: readonly RememberedTab[]): Promise<void> {
  const file = tabsFile(home, cwd);
  // Nothing to remember and nothing remembered before: no need for the state directory.
  if (!tabs.length && !existsSync(file)) return;
  ensurePrivateDir(join(home, 'tabs'));
  await writeFile(file, JSON.stringify({ cwd, tabs }), { mode: 0o600 });
}

/** The tabs remembered for `cwd`; none when nothing was, or the file cannot be read. */
export function rememberedTabs(home: string, cwd: string): RememberedTab[] {
  const file = tabsFile(home, cwd);
  if (!existsSync(file)) return [];
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as { tabs: RememberedTab[] }).tabs ?? [];
  } catch {
    return [];
  }
}
