// src/plugins/account-dir.ts: every driver's account directory, and one clear refusal (exit 2)
// of a name that could escape it, whichever CLI it was given to.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { accountDir } from '../../src/plugins/account-dir.js';
import { BatonError } from '../../src/errors.js';
import { codexHome } from '../../plugins/codex/home.js';

const s = suite('account-dir');

s('an account lives under $XDG_CONFIG_HOME/baton/accounts/<driver>/<name>, else ~/.config', () => {
  assert.is(accountDir({ XDG_CONFIG_HOME: '/x/cfg', HOME: '/h' }, 'codex', 'work'), '/x/cfg/baton/accounts/codex/work');
  assert.is(accountDir({ HOME: '/h' }, 'claude', 'a.b_c-1'), '/h/.config/baton/accounts/claude/a.b_c-1');
  // A relative XDG_CONFIG_HOME is ignored, as the XDG spec says.
  assert.is(accountDir({ XDG_CONFIG_HOME: 'rel', HOME: '/h' }, 'qwen', 'w'), '/h/.config/baton/accounts/qwen/w');
});

s('a name that could leave the directory is a BatonError with exit 2, for every driver', () => {
  for (const bad of ['..', '.', '../escape', 'a/b', '', '-x', 'x'.repeat(65)]) {
    try {
      accountDir({ HOME: '/h' }, 'gemini', bad);
      assert.unreachable(`"${bad}" was accepted`);
    } catch (err) {
      assert.instance(err, BatonError, `"${bad}"`);
      assert.is((err as BatonError).exitCode, 2);
      assert.match((err as BatonError).message, `account name "${bad}" is not usable`);
    }
  }
  // Through a driver's own lookup as well (codex used to throw a plain Error: a stack trace).
  assert.throws(
    () => codexHome({ HOME: '/h' }, '../x'),
    (e: unknown) => e instanceof BatonError && e.exitCode === 2,
  );
});

s.run();
