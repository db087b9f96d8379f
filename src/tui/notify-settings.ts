// The user's "needs you" settings: `notify` in `$XDG_CONFIG_HOME/baton/settings.json`,
// e.g. {"notify": {"bell": false, "desktop": "osc777"}} (desktop: auto, osc9, osc777, both,
// off). Read once as baton's view starts. It only reads: a file or value it cannot use is
// said in a warning naming it, and the defaults apply (the TUI still opens).

import { readFileSync } from 'node:fs';
import { settingsPath } from '../conversation/index.js';
import { DEFAULT_NOTIFY, type NotifySettings } from './desktop-notify.js';

const DESKTOP = ['auto', 'osc9', 'osc777', 'both', 'off'] as const;

export interface NotifySettingsRead {
  settings: NotifySettings;
  warnings: string[];
}

/** `notify` of the parsed settings object `data` from `file`. */
export function parseNotifySettings(data: unknown, file: string): NotifySettingsRead {
  const warnings: string[] = [];
  const settings = { ...DEFAULT_NOTIFY };
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    return { settings, warnings: [`${file} must hold a JSON object; notifications use their defaults`] };
  const notify = (data as Record<string, unknown>).notify;
  if (notify === undefined || notify === null) return { settings, warnings };
  if (typeof notify !== 'object' || Array.isArray(notify))
    return { settings, warnings: [`notify in ${file} must be an object, e.g. {"bell": true, "desktop": "auto"}; using the defaults`] };
  const { bell, desktop } = notify as Record<string, unknown>;
  if (bell !== undefined) {
    if (typeof bell === 'boolean') settings.bell = bell;
    else warnings.push(`notify.bell in ${file} must be true or false; the bell rings`);
  }
  if (desktop !== undefined) {
    if (typeof desktop === 'string' && (DESKTOP as readonly string[]).includes(desktop)) settings.desktop = desktop as NotifySettings['desktop'];
    else warnings.push(`notify.desktop in ${file} must be one of ${DESKTOP.join(', ')}; using auto`);
  }
  return { settings, warnings };
}

export function readNotifySettings(env: NodeJS.ProcessEnv): NotifySettingsRead {
  const file = settingsPath(env);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { settings: { ...DEFAULT_NOTIFY }, warnings: [] };
    return { settings: { ...DEFAULT_NOTIFY }, warnings: [`cannot read ${file} (${(err as Error).message}); notifications use their defaults`] };
  }
  try {
    return parseNotifySettings(JSON.parse(text), file);
  } catch (err) {
    return { settings: { ...DEFAULT_NOTIFY }, warnings: [`${file} is not valid JSON (${(err as Error).message}); notifications use their defaults`] };
  }
}
