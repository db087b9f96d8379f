// `baton accounts` (src/commands/accounts-command.ts) run in-process: list, add, default,
// remove, what each prints, and the refusals (exit 2) that change nothing: a bad name, an
// account that does not exist, `default` where it cannot be, an agent that cannot isolate
// accounts. Login status comes from the CLI's own files (here written as the CLI would).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../src/cli.js';
import { bufferIo } from '../../src/commands/io.js';

const s = suite('accounts-command');
let root = '';
let env: NodeJS.ProcessEnv = {};
s.before.each(() => {
  root = mkdtempSync(join(tmpdir(), 'baton-accounts-cmd-'));
  env = { HOME: join(root, 'home'), BATON_HOME: join(root, 'bh'), XDG_CONFIG_HOME: join(root, 'cfg'), PATH: '/nonexistent' };
});
s.after.each(() => rmSync(root, { recursive: true, force: true }));

async function baton(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const io = bufferIo(env, root);
  const code = await main(args, io);
  return { code, out: io.stdout(), err: io.stderr() };
}

s('list: every agent that can have accounts, `default` first and used, not logged in anywhere yet', async () => {
  const r = await baton('accounts', 'list');
  assert.is(r.code, 0, r.err);
  for (const agent of ['claude', 'codex', 'gemini', 'qwen', 'opencode']) assert.match(r.out, new RegExp(`^${agent} +default +default +not logged in`, 'm'));
});

s('add, default, list, remove: the account is made, used when none is named, shown with its login, removed', async () => {
  const add = await baton('accounts', 'add', 'codex', 'work');
  assert.is(add.code, 0, add.err);
  assert.match(add.out, `added account work of Codex CLI: ${join(root, 'bh/accounts/codex/work')}`);
  assert.match(add.err, 'next: baton accounts login codex work');
  assert.is((await baton('accounts', 'default', 'codex', 'work')).code, 0);
  // codex writes this at `codex login --with-api-key` (seen with codex 0.171).
  writeFileSync(join(root, 'bh/accounts/codex/work/auth.json'), JSON.stringify({ auth_mode: 'apikey', OPENAI_API_KEY: 'sk-x' }));
  const list = await baton('accounts', 'list', 'codex');
  assert.is(list.out, 'AGENT  ACCOUNT  USED     LOGIN\ncodex  default           not logged in\ncodex  work     default  logged in: API key\n');
  const json = JSON.parse((await baton('accounts', 'list', 'codex', '--json')).out) as { account: string; dir?: string; default: boolean }[];
  assert.equal(
    json.map((r) => [r.account, r.default, r.dir]),
    [
      ['default', false, undefined],
      ['work', true, join(root, 'bh/accounts/codex/work')],
    ],
  );
  assert.not.match(JSON.stringify(json), 'sk-x', 'never the secret');
  const rm = await baton('accounts', 'remove', 'codex', 'work');
  assert.is(rm.code, 0, rm.err);
  assert.not.ok(existsSync(join(root, 'bh/accounts/codex/work')));
  assert.match((await baton('accounts', 'list', 'codex')).out, /codex +default +default/);
});

s('bad names, missing accounts and `default` where it cannot be: exit 2 with a clear message, nothing made', async () => {
  const cases: [string[], RegExp][] = [
    [['add', 'claude', '../x'], /account name "..\/x" is not usable \(it holds a path separator\)/],
    [['add', 'claude', ''], /account name "" is not usable \(it is empty\)/],
    [['add', 'claude', '..'], /account name ".." is not usable \(it starts with a dot\)/],
    [['add', 'claude', 'default'], /always exists: it is the CLI's own configuration/],
    [['remove', 'claude', 'default'], /cannot remove the account "default"/],
    [['remove', 'claude', 'ghost'], /claude has no account "ghost"/],
    [['default', 'claude', 'ghost'], /claude has no account "ghost"/],
    [['login', 'claude', 'ghost'], /claude has no account "ghost"[\s\S]*baton accounts add claude ghost/],
    [['add', 'nosuch', 'w'], /unknown agent "nosuch"/],
    [[], /say what to do: list, add, login, remove or default/],
  ];
  for (const [args, msg] of cases) {
    const r = await baton('accounts', ...args);
    assert.is(r.code, 2, `${args.join(' ')}: ${r.err}`);
    assert.match(r.err, msg);
    assert.not.match(r.err, /\n\s+at /, 'no stack trace');
  }
  assert.not.ok(existsSync(join(root, 'bh/accounts/claude')), 'nothing was made');
});

s('--account on chat and fork: a bad name is refused first (exit 2), before any agent or conversation is looked at', async () => {
  for (const args of [
    ['chat', '--agent', 'claude', '--account', 'a/b', 'hi'],
    ['fork', 'nope', '--at', '1', '--account', '..'],
  ]) {
    const r = await baton(...args);
    assert.is(r.code, 2, r.err);
    assert.match(r.err, /account name ".*" is not usable/);
  }
  assert.not.ok(existsSync(join(root, 'bh/conversations')), 'no conversation was made');
});

s.run();
