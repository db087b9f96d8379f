// src/plugins/account-store.ts: the accounts of each agent as directories under BATON_HOME
// (0700), the one it runs under when none is named, and the refusals (exit 2) that keep a
// bad or missing name from making or deleting anything.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BatonError } from '../../src/errors.js';
import {
  accountExists,
  addAccount,
  checkRunAccount,
  defaultAccount,
  driverAccount,
  listAccounts,
  removeAccount,
  setDefaultAccount,
} from '../../src/plugins/account-store.js';

const s = suite('account-store');
let root = '';
let env: NodeJS.ProcessEnv = {};
s.before.each(() => {
  root = mkdtempSync(join(tmpdir(), 'baton-accounts-'));
  env = { BATON_HOME: join(root, 'bh'), HOME: root };
});
s.after.each(() => rmSync(root, { recursive: true, force: true }));

const code = (fn: () => unknown): number | undefined => {
  try {
    fn();
    return undefined;
  } catch (err) {
    assert.instance(err, BatonError);
    return (err as BatonError).exitCode;
  }
};
const mode = (p: string) => statSync(p).mode & 0o777;

s('add makes the directory and its parents 0700; list shows it; `default` always exists and is not listed', () => {
  const dir = addAccount(env, 'claude', 'work');
  assert.is(dir, join(root, 'bh/accounts/claude/work'));
  for (const p of [join(root, 'bh/accounts'), join(root, 'bh/accounts/claude'), dir]) assert.is(mode(p), 0o700, p);
  addAccount(env, 'claude', 'home');
  assert.equal(listAccounts(env, 'claude'), ['home', 'work']);
  assert.equal(listAccounts(env, 'codex'), []);
  assert.ok(accountExists(env, 'claude', 'default'));
  assert.not.ok(accountExists(env, 'codex', 'work'), 'accounts are per agent');
});

s('add refuses an existing account, `default` and a bad name with exit 2, making nothing', () => {
  addAccount(env, 'codex', 'work');
  assert.is(
    code(() => addAccount(env, 'codex', 'work')),
    2,
  );
  assert.is(
    code(() => addAccount(env, 'codex', 'default')),
    2,
  );
  for (const bad of ['', '.', '..', 'a/b', '../../x'])
    assert.is(
      code(() => addAccount(env, 'codex', bad)),
      2,
      JSON.stringify(bad),
    );
  assert.equal(readdirSync(join(root, 'bh/accounts/codex')), ['work']);
});

s('default: `default` until one is set; set to an account it sticks; removing that account falls back', () => {
  assert.is(defaultAccount(env, 'gemini'), 'default');
  assert.is(
    code(() => setDefaultAccount(env, 'gemini', 'nope')),
    2,
    'only an account that exists',
  );
  addAccount(env, 'gemini', 'work');
  setDefaultAccount(env, 'gemini', 'work');
  assert.is(defaultAccount(env, 'gemini'), 'work');
  assert.is(mode(join(root, 'bh/accounts/gemini/.default')), 0o600);
  assert.equal(listAccounts(env, 'gemini'), ['work'], 'the default file is not an account');
  removeAccount(env, 'gemini', 'work');
  assert.not.ok(existsSync(join(root, 'bh/accounts/gemini/work')));
  assert.is(defaultAccount(env, 'gemini'), 'default');
  addAccount(env, 'gemini', 'b');
  setDefaultAccount(env, 'gemini', 'b');
  setDefaultAccount(env, 'gemini', 'default');
  assert.is(defaultAccount(env, 'gemini'), 'default');
});

s('remove refuses `default`, a missing account and a bad name with exit 2', () => {
  assert.is(
    code(() => removeAccount(env, 'qwen', 'default')),
    2,
  );
  assert.is(
    code(() => removeAccount(env, 'qwen', 'gone')),
    2,
  );
  assert.is(
    code(() => removeAccount(env, 'qwen', '..')),
    2,
  );
});

s('a run under an account needs a driver that isolates accounts and an account that exists; `default` always passes', () => {
  const able = { name: 'claude', title: 'Claude Code', capabilities: { resume: true, fork: true, tabSession: true, tab: true, accounts: true } };
  const unable = { ...able, name: 'acp-x', title: 'X', capabilities: { ...able.capabilities, accounts: false } };
  checkRunAccount(able, 'default', env);
  checkRunAccount(unable, 'default', env);
  assert.is(
    code(() => checkRunAccount(able, 'work', env)),
    2,
    'not made yet',
  );
  addAccount(env, 'claude', 'work');
  checkRunAccount(able, 'work', env);
  assert.is(
    code(() => checkRunAccount(unable, 'work', env)),
    2,
  );
  assert.is(
    code(() => checkRunAccount(able, 'a/b', env)),
    2,
  );
  assert.is(driverAccount('default'), undefined);
  assert.is(driverAccount('work'), 'work');
});

s.run();
