// The qwen driver without running Qwen Code: launch() argv and env (model, account via
// QWEN_HOME, resume, no native fork, the first message through --prompt-interactive or, past
// the argv limit, as a file reference), the auto-update-off system settings layer that every
// run gets (merged over the user's own system settings), the headless argv, where chat logs
// are looked for, and screen status on TUI screens captured from the pinned CLI.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BatonError } from '../../src/errors.js';
import definition from '../../plugins/qwen/index.js';
import { DEFAULT_CAPABILITIES, normalizeDriver } from '../../src/plugins/normalize-driver.js';
import { qwenStatusFromScreen } from '../../plugins/qwen/screen.js';
import { qwenHeadlessArgs } from '../../plugins/qwen/headless.js';
import { chatsDir, findChatLog, qwenHome, qwenProjectId, qwenRuntimeDir, writeSystemSettings } from '../../plugins/qwen/home.js';
import { assertFindsLog, followsNamedSession, followsNothingUnnamed, followsOwnLog } from '../helpers/ingest-fixture.js';
import { fixtureScreen } from '../helpers/log-fixtures.js';

/** The driver as baton uses it (through the registry's normalizeDriver). */
const driver = normalizeDriver(definition);

let dir: string;
let cwd: string;
const env = (extra: Record<string, string> = {}) => ({
  HOME: join(dir, 'home'),
  XDG_CONFIG_HOME: join(dir, 'config'),
  PATH: '/usr/bin:/bin',
  QWEN_CODE_SYSTEM_SETTINGS_PATH: join(dir, 'no-system-settings.json'),
  ...extra,
});
const settingsOf = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Record<string, any>;

const s = suite('qwen driver');
s.before.each(() => {
  dir = mkdtempSync(join(tmpdir(), 'baton-qwen-unit-'));
  cwd = join(dir, 'work');
  mkdirSync(cwd);
});
s.after.each(() => rmSync(dir, { recursive: true, force: true }));

s('identity and capabilities: resume, no native fork', () => {
  assert.is(driver.name, 'qwen');
  assert.is(driver.title, 'Qwen Code');
  assert.equal(driver.families, ['qwen']);
  assert.is(driver.testedVersions, '0.15.10');
  assert.equal(driver.capabilities, { ...DEFAULT_CAPABILITIES, resume: true, accounts: true, permissionModes: true, launchModes: true });
});

s('launch: args, model, resume, never a prompt on the command line; auto-update forced off', async () => {
  const spec = await driver.launch({ cwd, env: env(), model: 'qwen3-coder', resume: 's-1', args: ['--debug'] });
  assert.is(spec.command, 'qwen');
  assert.equal(spec.args, ['--debug', '--model', 'qwen3-coder', '--resume', 's-1']);
  assert.is(spec.session, 's-1');
  assert.equal(Object.keys(spec.env), ['QWEN_CODE_SYSTEM_SETTINGS_PATH']);
  const layer = spec.env.QWEN_CODE_SYSTEM_SETTINGS_PATH!;
  assert.is(layer, join(dir, 'config', 'baton', 'qwen', 'system-settings.json'));
  assert.equal(settingsOf(layer), { general: { enableAutoUpdate: false }, $version: 4 });
  assert.is(statSync(layer).mode & 0o777, 0o600);
  // A fresh run is bound to a new session id of baton's, a different one each time.
  const none = await driver.launch({ cwd, env: env() });
  assert.match(none.session!, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.equal(none.args, ['--session-id', none.session!]);
  assert.is.not((await driver.launch({ cwd, env: env() })).session, none.session);
});

s('launch: fork is refused (exit 2): qwen cannot fork a session', async () => {
  try {
    await driver.launch({ cwd, env: env(), resume: 's-1', fork: true });
    assert.unreachable('fork accepted');
  } catch (err) {
    assert.instance(err, BatonError);
    assert.is((err as BatonError).exitCode, 2);
    assert.match((err as BatonError).message, 'cannot fork');
  }
});

s('launch: an account is its own QWEN_HOME, made 0700', async () => {
  const spec = await driver.launch({ cwd, env: env(), account: 'team' });
  const home = join(dir, 'home', '.local/state/baton', 'accounts', 'qwen', 'team');
  assert.is(spec.env.QWEN_HOME, home);
  assert.is(statSync(home).mode & 0o777, 0o700);
});

s("the system settings layer keeps the user's own system settings, with auto-update off on top", () => {
  const mine = join(dir, 'etc-qwen.json');
  writeFileSync(mine, JSON.stringify({ general: { enableAutoUpdate: true, vimMode: true }, tools: { approvalMode: 'default' }, $version: 4 }));
  const layer = writeSystemSettings(env({ QWEN_CODE_SYSTEM_SETTINGS_PATH: mine }));
  assert.equal(settingsOf(layer), { general: { enableAutoUpdate: false, vimMode: true }, tools: { approvalMode: 'default' }, $version: 4 });
  // Written again from its own output (a nested run), it stays the same.
  assert.equal(settingsOf(writeSystemSettings(env({ QWEN_CODE_SYSTEM_SETTINGS_PATH: layer }))), settingsOf(layer));
  // An unreadable file (JSON with comments) leaves only the forced value.
  writeFileSync(mine, '// comment\n{ "general": {} }');
  assert.equal(settingsOf(writeSystemSettings(env({ QWEN_CODE_SYSTEM_SETTINGS_PATH: mine }))), { general: { enableAutoUpdate: false }, $version: 4 });
});

s('headless argv: stream-json, prompt not in argv; --yes is --yolo', () => {
  assert.equal(qwenHeadlessArgs({ yes: false }), ['--output-format', 'stream-json']);
  assert.equal(qwenHeadlessArgs({ yes: true, model: 'm', resume: 'r', args: ['--auth-type', 'openai'] }), [
    '--output-format',
    'stream-json',
    '--model',
    'm',
    '--resume',
    'r',
    '--yolo',
    '--auth-type',
    'openai',
  ]);
});

s("where chats are: QWEN_RUNTIME_DIR, QWEN_HOME (with ~), the account, ~/.qwen; the cwd's project first", () => {
  assert.is(qwenHome({ HOME: '/h' }), '/h/.qwen');
  assert.is(qwenHome({ HOME: '/h', QWEN_HOME: '~/q' }), '/h/q');
  assert.is(qwenHome({ HOME: '/h', QWEN_HOME: '/q' }, 'a'), '/h/.local/state/baton/accounts/qwen/a');
  assert.is(qwenRuntimeDir({ HOME: '/h', QWEN_HOME: '/q' }), '/q');
  assert.is(qwenRuntimeDir({ HOME: '/h', QWEN_HOME: '/q', QWEN_RUNTIME_DIR: '/r' }), '/r');
  assert.is(qwenProjectId('/tmp/a_b.c'), '-tmp-a-b-c');
  const rt = join(dir, 'rt');
  assertFindsLog((id) => findChatLog(rt, cwd, id), chatsDir(rt, cwd), join(rt, 'projects', '-other', 'chats'), '../../x');
});

s('statusFromScreen on screens of the real TUI', () => {
  const screen = (name: string) => fixtureScreen('qwen', name);
  assert.is(qwenStatusFromScreen(screen('initializing')), 'working');
  assert.is(qwenStatusFromScreen(screen('idle-start')), 'idle');
  assert.is(qwenStatusFromScreen(screen('working')), 'working');
  assert.is(qwenStatusFromScreen(screen('approval')), 'approval');
  assert.is(qwenStatusFromScreen(screen('idle-after-reply')), 'idle');
  assert.is(qwenStatusFromScreen(['', 'booting', '']), undefined);
});

s(
  "ingest: the chat log of the session the launch named is followed line by line as it is written; another tab's new log and an older one are not",
  async () => {
    const logs = chatsDir(join(dir, 'rt'), cwd);
    await followsOwnLog({ driver, cli: 'qwen', cwd, env: env({ QWEN_RUNTIME_DIR: join(dir, 'rt') }), logs }, { line: 2, at: 30 });
  },
);

s('ingest without a session named follows nothing, not even the one new chat log, and says why', async () => {
  const logs = chatsDir(join(dir, 'rt-unnamed'), cwd);
  await followsNothingUnnamed({ driver, cli: 'qwen', cwd, env: env({ QWEN_RUNTIME_DIR: join(dir, 'rt-unnamed') }), logs });
});

s('ingest of a named session: records from before `since` give no events, later ones do', async () => {
  const logs = chatsDir(join(dir, 'qh'), cwd);
  await followsNamedSession({ driver, cli: 'qwen', cwd, env: env({ QWEN_HOME: join(dir, 'qh') }), logs });
});

s.run();
