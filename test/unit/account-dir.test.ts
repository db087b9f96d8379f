// src/plugins/account-dir.ts: every driver's account directory under BATON_HOME, and one clear
// refusal (exit 2) of a name that could escape it, whichever CLI it was given to.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { accountDir, checkAccountName } from '../../src/plugins/account-dir.js';
import { BatonError } from '../../src/errors.js';
import { codexHome } from '../../plugins/codex/home.js';
import { claudeConfigDir } from '../../plugins/claude/home.js';
import { geminiDir } from '../../plugins/gemini/home.js';
import { qwenHome } from '../../plugins/qwen/home.js';
import { opencodeDataDir } from '../../plugins/opencode/home.js';

const s = suite('account-dir');

s('an account lives under $BATON_HOME/accounts/<driver>/<name>, else $XDG_STATE_HOME/baton, else ~/.local/state/baton', () => {
  assert.is(accountDir({ BATON_HOME: '/b', HOME: '/h' }, 'codex', 'work'), '/b/accounts/codex/work');
  assert.is(accountDir({ XDG_STATE_HOME: '/st', HOME: '/h' }, 'claude', 'a.b_c-1'), '/st/baton/accounts/claude/a.b_c-1');
  assert.is(accountDir({ HOME: '/h' }, 'qwen', 'w'), '/h/.local/state/baton/accounts/qwen/w');
});

s("each driver's config dir for an account is that directory (through the CLI's own variable)", () => {
  const env = { BATON_HOME: '/b', HOME: '/h' };
  assert.is(claudeConfigDir(env, 'w'), '/b/accounts/claude/w');
  assert.is(codexHome(env, 'w'), '/b/accounts/codex/w');
  assert.is(geminiDir(env, 'w'), '/b/accounts/gemini/w/.gemini');
  assert.is(qwenHome(env, 'w'), '/b/accounts/qwen/w');
  assert.is(opencodeDataDir(env, 'w'), '/b/accounts/opencode/w/data/opencode');
  // Without an account: the CLI's own places, untouched by baton.
  assert.is(claudeConfigDir(env), '/h/.claude');
  assert.is(codexHome(env), '/h/.codex');
});

const refused = (fn: () => unknown, label: string, why?: RegExp) => {
  try {
    fn();
    assert.unreachable(`${label} was accepted`);
  } catch (err) {
    assert.instance(err, BatonError, label);
    assert.is((err as BatonError).exitCode, 2, label);
    if (why) assert.match((err as BatonError).message, why, label);
  }
};

s('a name that could leave the directory, or is empty or hidden, is a BatonError with exit 2 saying why', () => {
  refused(() => checkAccountName(''), 'empty', /"" is not usable \(it is empty\)/);
  refused(() => checkAccountName('a/b'), 'a/b', /holds a path separator/);
  refused(() => checkAccountName('..\\x'), 'backslash', /holds a path separator/);
  refused(() => checkAccountName('.'), '.', /starts with a dot/);
  refused(() => checkAccountName('..'), '..', /starts with a dot/);
  for (const bad of ['../escape', '-x', 'x'.repeat(65), 'a b', 'é', 'a\nb'])
    refused(() => accountDir({ HOME: '/h' }, 'gemini', bad), JSON.stringify(bad), /is not usable/);
  // A control character is never echoed raw.
  refused(() => checkAccountName('a\u001b[2Jb'), 'escape', /"a\?\[2Jb"/);
  // Through a driver's own lookup as well (no stack trace from a plain Error).
  refused(() => codexHome({ HOME: '/h' }, '../x'), 'codexHome');
  for (const ok of ['work', 'a.b', 'W-2_x', '1', 'x'.repeat(64)]) checkAccountName(ok);
});

s('"default" is the CLI\'s own configuration: it has no directory of baton\'s', () => {
  refused(() => accountDir({ HOME: '/h' }, 'claude', 'default'), 'default', /the CLI's own configuration/);
});

s.run();
