// The user's XDG config base, where baton's own config (and qwen's settings layer) lives.

import { homedir } from 'node:os';
import { join } from 'node:path';

/** An absolute XDG_CONFIG_HOME, else ~/.config. */
export function configBase(env: NodeJS.ProcessEnv): string {
  return env.XDG_CONFIG_HOME?.startsWith('/') ? env.XDG_CONFIG_HOME : join(env.HOME || homedir(), '.config');
}
