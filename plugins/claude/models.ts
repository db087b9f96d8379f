// Claude Code's models, from a table: claude 2.1.x has no command that lists them without a
// login and a network (its /model picker asks Anthropic). The table holds the aliases
// `--model` takes, which Claude Code itself resolves to the newest model of each kind, so it
// goes stale slowly; full model names (claude-opus-4-8, ...) are taken too and not listed.
// Read from Claude Code 2.1.197's own help and binary; a newer CLI may offer more. The current
// model is ANTHROPIC_MODEL, else `model` in the account's settings.json, when either is set.

import { join } from 'node:path';
import { readJsonObject, type ModelInfo, type ModelList, type ModelListOptions } from '../../src/plugins/kit.js';
import { claudeConfigDir } from './home.js';

/** The Claude Code version the table was read from. */
export const CLAUDE_MODELS_TABLE_VERSION = '2.1.197';

export const CLAUDE_MODELS: readonly ModelInfo[] = [
  { id: 'opus', name: 'Opus', description: 'the newest Opus (claude-opus-4-8 in 2.1.197)' },
  { id: 'sonnet', name: 'Sonnet', description: 'the newest Sonnet' },
  { id: 'haiku', name: 'Haiku', description: 'the newest Haiku (claude-haiku-4-5 in 2.1.197), fast and cheap' },
  { id: 'opusplan', name: 'Opus plan', description: 'Opus in plan mode, Sonnet otherwise' },
];

export function claudeModels(opts: ModelListOptions): Promise<ModelList> {
  let current = opts.env.ANTHROPIC_MODEL || undefined;
  if (!current) {
    const settings = readJsonObject(join(claudeConfigDir(opts.env, opts.account), 'settings.json'));
    if (typeof settings?.model === 'string' && settings.model) current = settings.model;
  }
  return Promise.resolve({
    models: CLAUDE_MODELS.map((m) => ({ ...m })),
    source: 'table',
    note: `baton's table, read from Claude Code ${CLAUDE_MODELS_TABLE_VERSION} (may be stale; any model name the CLI takes works)`,
    ...(current ? { current } : {}),
  });
}
