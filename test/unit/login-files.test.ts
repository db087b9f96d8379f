// What each built-in driver's loginStatus() reads of the CLI's own files (src/plugins/login-files.ts
// and plugins/*/login.ts): the file each CLI writes at its login, in the account's config
// dir, never another account's; the environment's keys count for every account. No secret
// ever comes back, only whether and how.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { claudeLoginStatus } from '../../plugins/claude/login.js';
import { codexLoginStatus } from '../../plugins/codex/login.js';
import { geminiLoginStatus } from '../../plugins/gemini/login.js';
import { opencodeLoginStatus } from '../../plugins/opencode/login.js';
import { qwenLoginStatus } from '../../plugins/qwen/login.js';
import { hasText, readJsonObject } from '../../src/plugins/login-files.js';

const s = suite('login-files');
let root = '';
let env: NodeJS.ProcessEnv = {};
s.before.each(() => {
  root = mkdtempSync(join(tmpdir(), 'baton-login-'));
  env = { HOME: join(root, 'home'), BATON_HOME: join(root, 'bh') };
});
s.after.each(() => rmSync(root, { recursive: true, force: true }));

const SECRET = 'sk-SECRET-never-returned-0000';
function write(rel: string, value: unknown): string {
  const file = join(root, rel);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));
  return file;
}
const noSecret = (v: unknown) => assert.not.match(JSON.stringify(v), SECRET);

s('readJsonObject: missing, malformed or not an object is undefined; hasText looks down a path', () => {
  assert.is(readJsonObject(join(root, 'none.json')), undefined);
  assert.is(readJsonObject(write('bad.json', '{nope')), undefined);
  assert.is(readJsonObject(write('arr.json', [1])), undefined);
  const o = readJsonObject(write('ok.json', { a: { b: 'x' }, c: ' ' }));
  assert.ok(hasText(o, 'a', 'b'));
  assert.not.ok(hasText(o, 'c'));
  assert.not.ok(hasText(o, 'a', 'z'));
});

s("claude: .credentials.json's OAuth in the account's config dir, else a saved API key, else the environment", async () => {
  assert.is((await claudeLoginStatus({ env, account: 'work' })).loggedIn, false);
  write('bh/accounts/claude/work/.credentials.json', { claudeAiOauth: { accessToken: SECRET } });
  const work = await claudeLoginStatus({ env, account: 'work' });
  assert.equal([work.loggedIn, work.method], [true, 'Claude account (OAuth)']);
  noSecret(work);
  assert.is((await claudeLoginStatus({ env, account: 'home' })).loggedIn, false, "another account's login is not this one's");
  assert.is((await claudeLoginStatus({ env })).loggedIn, false);
  write('home/.claude.json', { primaryApiKey: SECRET });
  assert.equal((await claudeLoginStatus({ env })).method, 'API key saved by /login', "the CLI's own configuration: ~/.claude.json");
  const viaEnv = await claudeLoginStatus({ env: { ...env, ANTHROPIC_API_KEY: SECRET }, account: 'home' });
  assert.equal([viaEnv.loggedIn, viaEnv.method], [true, 'ANTHROPIC_API_KEY in the environment (every account)']);
  noSecret(viaEnv);
});

s('codex: auth.json in CODEX_HOME, an API key or ChatGPT tokens', async () => {
  write('bh/accounts/codex/a/auth.json', { auth_mode: 'apikey', OPENAI_API_KEY: SECRET });
  write('bh/accounts/codex/b/auth.json', { tokens: { access_token: SECRET, refresh_token: SECRET } });
  assert.equal((await codexLoginStatus({ env, account: 'a' })).method, 'API key');
  assert.equal((await codexLoginStatus({ env, account: 'b' })).method, 'ChatGPT account');
  assert.is((await codexLoginStatus({ env, account: 'c' })).loggedIn, false);
  assert.is((await codexLoginStatus({ env })).source, join(root, 'home/.codex/auth.json'));
  noSecret(await codexLoginStatus({ env, account: 'a' }));
});

s("gemini: its file keychain or oauth_creds.json in the account's .gemini, else the chosen auth type with its key", async () => {
  write('bh/accounts/gemini/g/.gemini/gemini-credentials.json', { 'main-account': 'encrypted' });
  assert.equal((await geminiLoginStatus({ env, account: 'g' })).method, 'Google account (OAuth)');
  write('bh/accounts/gemini/k/.gemini/settings.json', { security: { auth: { selectedType: 'gemini-api-key' } } });
  assert.is((await geminiLoginStatus({ env, account: 'k' })).loggedIn, false, 'the key type chosen, but no key');
  assert.is((await geminiLoginStatus({ env: { ...env, GEMINI_API_KEY: SECRET }, account: 'k' })).method, 'API key (GEMINI_API_KEY)');
});

s('qwen: oauth_creds.json in QWEN_HOME, else the auth type with a key in settings.json or the environment', async () => {
  write('bh/accounts/qwen/o/oauth_creds.json', { access_token: SECRET });
  assert.is((await qwenLoginStatus({ env, account: 'o' })).method, 'Qwen OAuth');
  write('bh/accounts/qwen/s/settings.json', { security: { auth: { selectedType: 'openai', apiKey: SECRET } } });
  assert.is((await qwenLoginStatus({ env, account: 's' })).method, 'API key (openai, in settings.json)');
  write('bh/accounts/qwen/e/settings.json', { security: { auth: { selectedType: 'openai' } } });
  assert.is((await qwenLoginStatus({ env, account: 'e' })).loggedIn, false);
  assert.is((await qwenLoginStatus({ env: { ...env, OPENAI_API_KEY: SECRET }, account: 'e' })).method, 'API key (openai, OPENAI_API_KEY in the environment)');
});

s("opencode: auth.json in the account's data dir, one entry per provider", async () => {
  write('bh/accounts/opencode/w/data/opencode/auth.json', { openai: { type: 'api', key: SECRET }, anthropic: { type: 'oauth' } });
  const st = await opencodeLoginStatus({ env, account: 'w' });
  assert.equal([st.loggedIn, st.method], [true, 'logged in to anthropic, openai']);
  noSecret(st);
  assert.is((await opencodeLoginStatus({ env })).loggedIn, false);
});

s.run();
