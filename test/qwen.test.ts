// The qwen driver without running Qwen Code: launch() argv and env (model, account via
// QWEN_HOME, resume, no native fork, the first message through --prompt-interactive or, past
// the argv limit, as a file reference), the auto-update-off system settings layer that every
// run gets (merged over the user's own system settings), the headless argv, where chat logs
// are looked for, and screen status on TUI screens captured from the pinned CLI.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ARGV_PROMPT_LIMIT, type TranscriptEvent } from '../src/plugins/api.js';
import { BatonError } from '../src/errors.js';
import driver, { qwenStatusFromScreen } from '../plugins/qwen.js';
import { qwenHeadlessArgs } from '../plugins/qwen-headless.js';
import { chatsDir, findChatLog, qwenHome, qwenProjectId, qwenRuntimeDir, writeSystemSettings } from '../plugins/qwen-home.js';
import { REPO_ROOT } from './helpers/cli-env.js';
import { until } from './helpers/term.js';

let dir: string;
let cwd: string;
const env = (extra: Record<string, string> = {}) => ({ HOME: join(dir, 'home'), XDG_CONFIG_HOME: join(dir, 'config'), PATH: '/usr/bin:/bin', QWEN_CODE_SYSTEM_SETTINGS_PATH: join(dir, 'no-system-settings.json'), ...extra });
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
  assert.equal(driver.capabilities, { resume: true, fork: false, planMode: true, submit: 'paste' });
});

s('launch: args, model, resume, the message as one --prompt-interactive= string; auto-update forced off', async () => {
  const spec = await driver.launch({ cwd, env: env(), model: 'qwen3-coder', resume: 's-1', initialPrompt: '-dash first\nsecond line', args: ['--debug'] });
  assert.is(spec.command, 'qwen');
  assert.equal(spec.args, ['--debug', '--model', 'qwen3-coder', '--resume', 's-1', '--prompt-interactive=-dash first\nsecond line']);
  assert.is(spec.prompt, 'argv');
  assert.equal(Object.keys(spec.env), ['QWEN_CODE_SYSTEM_SETTINGS_PATH']);
  const layer = spec.env.QWEN_CODE_SYSTEM_SETTINGS_PATH!;
  assert.is(layer, join(dir, 'config', 'baton', 'qwen', 'system-settings.json'));
  assert.equal(settingsOf(layer), { general: { enableAutoUpdate: false }, $version: 4 });
  assert.is(statSync(layer).mode & 0o777, 0o600);
  const none = await driver.launch({ cwd, env: env() });
  assert.equal(none.args, []);
  assert.is(none.prompt, 'none');
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

s('launch: a message over the argv limit goes as a file reference; an account is its own QWEN_HOME', async () => {
  const big = `${'q'.repeat(ARGV_PROMPT_LIMIT + 1)}`;
  const spec = await driver.launch({ cwd, env: env(), initialPrompt: big, switchId: 'sw-9', account: 'team' });
  const file = join(cwd, '.baton', 'handoff-sw-9.md');
  assert.equal(spec.files, [file]);
  assert.is(readFileSync(file, 'utf8'), big);
  assert.is(statSync(file).mode & 0o777, 0o600);
  assert.is(statSync(join(cwd, '.baton')).mode & 0o777, 0o700);
  const arg = spec.args[spec.args.length - 1]!;
  assert.ok(arg.startsWith('--prompt-interactive=') && arg.includes(file) && Buffer.byteLength(arg) < 1024);
  const home = join(dir, 'config', 'baton', 'accounts', 'qwen', 'team');
  assert.is(spec.env.QWEN_HOME, home);
  assert.is(statSync(home).mode & 0o777, 0o700);
});

s('the system settings layer keeps the user\'s own system settings, with auto-update off on top', () => {
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
    '--output-format', 'stream-json', '--model', 'm', '--resume', 'r', '--yolo', '--auth-type', 'openai',
  ]);
});

s('where chats are: QWEN_RUNTIME_DIR, QWEN_HOME (with ~), the account, ~/.qwen; the cwd\'s project first', () => {
  assert.is(qwenHome({ HOME: '/h' }), '/h/.qwen');
  assert.is(qwenHome({ HOME: '/h', QWEN_HOME: '~/q' }), '/h/q');
  assert.is(qwenHome({ HOME: '/h', QWEN_HOME: '/q' }, 'a'), '/h/.config/baton/accounts/qwen/a');
  assert.is(qwenRuntimeDir({ HOME: '/h', QWEN_HOME: '/q' }), '/q');
  assert.is(qwenRuntimeDir({ HOME: '/h', QWEN_HOME: '/q', QWEN_RUNTIME_DIR: '/r' }), '/r');
  assert.is(qwenProjectId('/tmp/a_b.c'), '-tmp-a-b-c');
  const rt = join(dir, 'rt');
  const mine = chatsDir(rt, cwd);
  const other = join(rt, 'projects', '-other', 'chats');
  mkdirSync(mine, { recursive: true });
  mkdirSync(other, { recursive: true });
  writeFileSync(join(mine, 's1.jsonl'), '');
  writeFileSync(join(other, 's2.jsonl'), '');
  assert.is(findChatLog(rt, cwd, 's1'), join(mine, 's1.jsonl'));
  assert.is(findChatLog(rt, cwd, 's2'), join(other, 's2.jsonl'));
  assert.is(findChatLog(rt, cwd, 's3'), undefined);
  assert.is(findChatLog(rt, cwd, '../../x'), undefined);
});

s('statusFromScreen on screens of the real TUI', () => {
  const screen = (name: string) => readFileSync(join(REPO_ROOT, 'test/fixtures/qwen/screens', `${name}.txt`), 'utf8').split('\n');
  assert.is(qwenStatusFromScreen(screen('initializing')), 'working');
  assert.is(qwenStatusFromScreen(screen('idle-start')), 'idle');
  assert.is(qwenStatusFromScreen(screen('working')), 'working');
  assert.is(qwenStatusFromScreen(screen('approval')), 'approval');
  assert.is(qwenStatusFromScreen(screen('idle-after-reply')), 'idle');
  assert.is(qwenStatusFromScreen(['', 'booting', '']), undefined);
});

const fixtureLines = (name: string) => readFileSync(join(REPO_ROOT, 'test/fixtures/qwen', name), 'utf8').split('\n').filter((l) => l.trim());
const restamp = (l: string, at: string) => l.replace(/"timestamp":"[^"]+"/g, `"timestamp":"${at}"`);

s('ingest: the first chat log created after `since` is followed line by line as it is written; an older one is not', async () => {
  const e = env({ QWEN_RUNTIME_DIR: join(dir, 'rt') });
  const chats = chatsDir(join(dir, 'rt'), cwd);
  mkdirSync(chats, { recursive: true });
  writeFileSync(join(chats, 'old-session.jsonl'), `${fixtureLines('tui-session.jsonl').join('\n')}\n`);
  // `since` clearly after the old log's birth, and the clock past it before the new one is made.
  const born = statSync(join(chats, 'old-session.jsonl'));
  const since = new Date(Math.max(born.birthtimeMs, born.mtimeMs) + 100);
  const events: TranscriptEvent[] = [];
  const ing = await driver.ingest!({ cwd, env: e, since, onEvent: (ev) => events.push(ev) });
  await until(() => Date.now() > since.getTime() + 5, 'the clock past since', 1_000);
  try {
    const later = new Date(Date.now() + 60_000).toISOString();
    const lines = fixtureLines('headless-session.jsonl').map((l) => restamp(l, later));
    const log = join(chats, 'new-session.jsonl');
    appendFileSync(log, `${lines.slice(0, 2).join('\n')}\n${lines[2]!.slice(0, 30)}`);
    await until(() => events.some((ev) => ev.type === 'user_text'), 'the first prompt', 10_000);
    assert.is(ing.agentSession, 'new-session');
    assert.not.ok(events.some((ev) => ev.type === 'turn_end'));
    appendFileSync(log, `${lines[2]!.slice(30)}\n${lines.slice(3).join('\n')}\n`);
    await until(() => events.filter((ev) => ev.type === 'turn_end').length === 3, 'three turn ends', 10_000);
    assert.equal(events[0], { type: 'session', agentSession: 'new-session' });
    assert.not.ok(JSON.stringify(events).includes('TUI-FIXTURE-TOKEN'), 'nothing from the log that was there before');
    assert.is(ing.skipped, 0);
  } finally {
    await ing.dispose();
  }
});

s('ingest of a named session: records from before `since` give no events, later ones do', async () => {
  const e = env({ QWEN_HOME: join(dir, 'qh') });
  const chats = chatsDir(join(dir, 'qh'), cwd);
  mkdirSync(chats, { recursive: true });
  const log = join(chats, 'known.jsonl');
  const lines = fixtureLines('tui-session.jsonl');
  writeFileSync(log, `${lines.join('\n')}\n`);
  const events: TranscriptEvent[] = [];
  const ing = await driver.ingest!({ cwd, env: e, since: new Date(), agentSession: 'known', onEvent: (ev) => events.push(ev) });
  try {
    const later = new Date(Date.now() + 60_000).toISOString();
    const again = lines.filter((l) => /"type":"(user|assistant)"/.test(l)).slice(0, 2).map((l) => restamp(l, later));
    appendFileSync(log, `${again.join('\n')}\n`);
    await until(() => events.some((ev) => ev.type === 'turn_end'), 'the appended turn', 10_000);
    assert.equal(events.map((ev) => ev.type), ['session', 'user_text', 'agent_text', 'turn_end']);
  } finally {
    await ing.dispose();
  }
});

s.run();
