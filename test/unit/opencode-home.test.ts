// plugins/opencode/home.ts: where opencode keeps an account's state and its session
// database, and how baton's settings are merged over the user's own opencode variables.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdirSync, mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { accountDir, mergeJsonVar, opencodeAccountEnv, opencodeDataDir, opencodeDbPath } from '../../plugins/opencode/home.js';

let dir = '';
const s = suite('opencode home');
s.before.each(() => {
  dir = mkdtempSync(join(tmpdir(), 'baton-opencode-home-'));
});
s.after.each(() => rmSync(dir, { recursive: true, force: true }));

s('data dir: XDG_DATA_HOME, else ~/.local/share; an account has its own data and config dirs (0700)', () => {
  assert.is(opencodeDataDir({ HOME: dir }), join(dir, '.local/share/opencode'));
  assert.is(opencodeDataDir({ HOME: dir, XDG_DATA_HOME: join(dir, 'd') }), join(dir, 'd/opencode'));
  // A relative XDG dir is ignored, as the spec says.
  assert.is(opencodeDataDir({ HOME: dir, XDG_DATA_HOME: 'rel' }), join(dir, '.local/share/opencode'));
  const env = { HOME: dir, BATON_HOME: join(dir, 'bh') };
  const acct = join(dir, 'bh/accounts/opencode/work');
  assert.is(accountDir(env, 'work'), acct);
  assert.equal(opencodeAccountEnv(env, 'work'), { XDG_DATA_HOME: join(acct, 'data'), XDG_CONFIG_HOME: join(acct, 'config') });
  assert.is(statSync(join(acct, 'data')).mode & 0o777, 0o700);
  assert.is(statSync(join(acct, 'config')).mode & 0o777, 0o700);
  assert.is(opencodeDataDir(env, 'work'), join(acct, 'data/opencode'));
  assert.equal(opencodeAccountEnv(env), {});
  assert.throws(() => accountDir(env, '../escape'), /account name "..\/escape" is not usable/);
});

s('the database: OPENCODE_DB (absolute or relative), opencode.db, else the newest channel database', () => {
  const env = { HOME: dir };
  const data = join(dir, '.local/share/opencode');
  assert.is(opencodeDbPath(env), join(data, 'opencode.db'), 'before opencode ever ran');
  assert.is(opencodeDbPath({ ...env, OPENCODE_DB: '/x/y.db' }), '/x/y.db');
  assert.is(opencodeDbPath({ ...env, OPENCODE_DB: 'mine.db' }), join(data, 'mine.db'));
  assert.is(opencodeDbPath({ ...env, OPENCODE_DB: ':memory:' }), undefined);
  mkdirSync(data, { recursive: true });
  writeFileSync(join(data, 'opencode-beta.db'), '');
  writeFileSync(join(data, 'opencode-dev.db'), '');
  utimesSync(join(data, 'opencode-beta.db'), new Date(1000), new Date(1000));
  assert.is(opencodeDbPath(env), join(data, 'opencode-dev.db'));
  writeFileSync(join(data, 'opencode.db'), '');
  assert.is(opencodeDbPath(env), join(data, 'opencode.db'));
});

s("mergeJsonVar: baton's keys over the user's JSON, the rest kept; a value it cannot read is left alone", () => {
  assert.is(mergeJsonVar({}, 'V', { model: 'a/b' }), '{"model":"a/b"}');
  const user = JSON.stringify({ model: 'x/y', provider: { fake: { options: { baseURL: 'u' } } }, permission: { bash: { 'git *': 'allow' }, read: 'allow' } });
  const merged = JSON.parse(mergeJsonVar({ V: user }, 'V', { model: 'a/b', permission: { bash: 'ask' } })!);
  assert.equal(merged, { model: 'a/b', provider: { fake: { options: { baseURL: 'u' } } }, permission: { bash: 'ask', read: 'allow' } });
  assert.is(mergeJsonVar({ V: '{ // jsonc\n "a": 1 }' }, 'V', { model: 'm' }), undefined);
  assert.is(mergeJsonVar({ V: '"allow"' }, 'V', { bash: 'ask' }), undefined);
  assert.is(mergeJsonVar({ V: '  ' }, 'V', { a: 1 }), '{"a":1}');
});

s.run();
