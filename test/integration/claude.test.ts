// The claude driver without running Claude Code: launch() argv and env (model, account,
// resume, fork, the first message on the command line or, past the argv limit, as a file
// reference), the headless argv for --yes as root or not, where logs are looked for, and
// screen status on TUI screens captured from the pinned CLI (test/fixtures/claude/screens),
// and its ingest following captured logs as they land.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { appendFileSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TranscriptEvent } from '../../src/plugins/api.js';
import { BatonError } from '../../src/errors.js';
import definition from '../../plugins/claude/index.js';
import { DEFAULT_CAPABILITIES, normalizeDriver } from '../../src/plugins/normalize-driver.js';
import { claudeStatusFromScreen } from '../../plugins/claude/screen.js';
import { headlessArgs, ROOT_ALLOWED_TOOLS } from '../../plugins/claude/headless.js';
import { claudeConfigDir, findSessionLog, projectDir, projectSlug } from '../../plugins/claude/home.js';
import { assertFindsLog, followsNamedSession, followsNothingUnnamed, followsOwnLog } from '../helpers/ingest-fixture.js';
import { fixtureLines, fixtureScreen, restamp } from '../helpers/log-fixtures.js';
import { until } from '../helpers/wait.js';

/** The driver as baton uses it (through the registry's normalizeDriver). */
const driver = normalizeDriver(definition);

let dir: string;
let cwd: string;
const env = () => ({ HOME: join(dir, 'home'), XDG_CONFIG_HOME: join(dir, 'config'), PATH: '/usr/bin:/bin' });

const s = suite('claude driver');
s.before.each(() => {
  dir = mkdtempSync(join(tmpdir(), 'baton-claude-unit-'));
  cwd = join(dir, 'work');
  mkdirSync(cwd);
});
s.after.each(() => rmSync(dir, { recursive: true, force: true }));

s('identity and capabilities', () => {
  assert.is(driver.name, 'claude');
  assert.is(driver.title, 'Claude Code');
  assert.equal(driver.families, ['claude']);
  assert.is(driver.testedVersions, '2.1.197');
  assert.equal(driver.capabilities, { ...DEFAULT_CAPABILITIES, resume: true, fork: true, accounts: true, permissionModes: true, launchModes: true });
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

s('launch: extra args first, then model, resume + fork into a new session id baton chose; never a prompt on the command line', async () => {
  const spec = await driver.launch({ cwd, env: env(), model: 'sonnet', resume: 'abc-123', fork: true, args: ['--verbose'] });
  assert.is(spec.command, 'claude');
  assert.match(spec.session!, UUID);
  assert.equal(spec.args, ['--verbose', '--model', 'sonnet', '--resume', 'abc-123', '--fork-session', '--session-id', spec.session!]);
  assert.equal(spec.env, {});
  assert.is(spec.cwd, cwd);
});

s('launch: every run is bound to its session: a fresh one to a new UUID each time, a resume to its own; fork without resume is no fork', async () => {
  const spec = await driver.launch({ cwd, env: env(), fork: true });
  assert.match(spec.session!, UUID);
  assert.equal(spec.args, ['--session-id', spec.session!]);
  const again = await driver.launch({ cwd, env: env() });
  assert.is.not(again.session, spec.session, 'two tabs never share an id');
  const resumed = await driver.launch({ cwd, env: env(), resume: 'abc' });
  assert.equal(resumed.args, ['--resume', 'abc']);
  assert.is(resumed.session, 'abc');
});

s('launch: an account is its own CLAUDE_CONFIG_DIR under $BATON_HOME/accounts (default ~/.local/state/baton), made 0700', async () => {
  const spec = await driver.launch({ cwd, env: env(), account: 'work' });
  const acct = join(dir, 'home', '.local/state/baton', 'accounts', 'claude', 'work');
  assert.equal(spec.env, { CLAUDE_CONFIG_DIR: acct });
  assert.is(statSync(acct).mode & 0o777, 0o700);
  try {
    await driver.launch({ cwd, env: env(), account: '../escape' });
    assert.unreachable('a path as account name');
  } catch (err) {
    assert.instance(err, BatonError);
    assert.is((err as BatonError).exitCode, 2);
  }
});

s('headless argv: stream-json, prompt not in argv; --yes is bypassPermissions, or named tools as root without IS_SANDBOX', () => {
  const base = { env: {}, yes: false };
  assert.equal(headlessArgs(base, false), ['-p', '--output-format', 'stream-json', '--verbose']);
  assert.equal(headlessArgs({ ...base, model: 'opus', resume: 's1', args: ['--max-turns', '3'] }, false), [
    '-p',
    '--output-format',
    'stream-json',
    '--verbose',
    '--model',
    'opus',
    '--resume',
    's1',
    '--max-turns',
    '3',
  ]);
  assert.equal(headlessArgs({ env: {}, yes: true }, false).slice(-2), ['--permission-mode', 'bypassPermissions']);
  assert.equal(headlessArgs({ env: { IS_SANDBOX: '1' }, yes: true }, true).slice(-2), ['--permission-mode', 'bypassPermissions']);
  assert.equal(headlessArgs({ env: {}, yes: true }, true).slice(-2), ['--allowedTools', ROOT_ALLOWED_TOOLS.join(',')]);
  assert.equal(headlessArgs({ ...base, resume: 's1', fork: true }, false).slice(-3), ['--resume', 's1', '--fork-session']);
  assert.not.ok(headlessArgs({ ...base, fork: true }, false).includes('--fork-session'), 'fork without resume is no fork');
});

s("carrySession: the log is copied (0600) to the other directory's project dir, the original untouched; undo removes the copy", async () => {
  const e = { ...env(), CLAUDE_CONFIG_DIR: join(dir, 'claude') };
  const mine = projectDir(e.CLAUDE_CONFIG_DIR, cwd);
  mkdirSync(mine, { recursive: true });
  const text = '{"type":"user","sessionId":"s-1"}\n';
  writeFileSync(join(mine, 's-1.jsonl'), text);
  const elsewhere = join(dir, 'worktree');
  const carried = await driver.carrySession!({ env: e, session: 's-1', cwd, toCwd: elsewhere });
  const copy = join(projectDir(e.CLAUDE_CONFIG_DIR, elsewhere), 's-1.jsonl');
  assert.is(readFileSync(copy, 'utf8'), text);
  assert.is(statSync(copy).mode & 0o777, 0o600);
  assert.is(readFileSync(join(mine, 's-1.jsonl'), 'utf8'), text);
  assert.equal(readdirSync(projectDir(e.CLAUDE_CONFIG_DIR, elsewhere)), ['s-1.jsonl'], 'no temp file left');
  await carried.undo();
  assert.equal(readdirSync(projectDir(e.CLAUDE_CONFIG_DIR, elsewhere)), []);
  assert.is(readFileSync(join(mine, 's-1.jsonl'), 'utf8'), text, 'undo leaves the original');
  try {
    await driver.carrySession!({ env: e, session: 'no-such', cwd, toCwd: elsewhere });
    assert.unreachable('an unknown session');
  } catch (err) {
    assert.instance(err, BatonError);
    assert.is((err as BatonError).exitCode, 2);
  }
});

s('where logs are: CLAUDE_CONFIG_DIR, the account, ~/.claude; slug rule with the long-path hash', () => {
  assert.is(claudeConfigDir({ HOME: '/h' }), '/h/.claude');
  assert.is(claudeConfigDir({ HOME: '/h', CLAUDE_CONFIG_DIR: '/c' }), '/c');
  assert.is(claudeConfigDir({ HOME: '/h', CLAUDE_CONFIG_DIR: '/c' }, 'a'), '/h/.local/state/baton/accounts/claude/a');
  assert.is(projectSlug('/tmp/x_y.z'), '-tmp-x-y-z');
  const long = `/${'d'.repeat(250)}`;
  const slug = projectSlug(long);
  assert.is(slug.slice(0, 201), `-${'d'.repeat(199)}-`);
  assert.match(slug.slice(201), /^[0-9a-z]+$/);
  assert.is(projectSlug(long), slug, 'deterministic');
  assert.is.not(projectSlug(`${long}e`), slug, 'paths that share the first 200 characters still differ');
});

s("findSessionLog: the cwd's project first, then any project; nothing for ids that are paths", () => {
  const config = join(dir, 'claude');
  assertFindsLog((id) => findSessionLog(config, cwd, id), projectDir(config, cwd), join(config, 'projects', '-elsewhere'), '../-elsewhere/b');
});

s('statusFromScreen on screens of the real TUI', () => {
  const screen = (name: string) => fixtureScreen('claude', name);
  assert.is(claudeStatusFromScreen(screen('idle-start')), 'idle');
  assert.is(claudeStatusFromScreen(screen('working')), 'working');
  assert.is(claudeStatusFromScreen(screen('approval')), 'approval');
  assert.is(claudeStatusFromScreen(screen('idle-after-reply')), 'idle');
  assert.is(claudeStatusFromScreen(['', 'loading…', '']), undefined);
});

s("ingest: the log of the session the launch named is followed line by line as it is written; another tab's new log and an older one are not", async () => {
  const env2 = { ...env(), CLAUDE_CONFIG_DIR: join(dir, 'cc') };
  await followsOwnLog({ driver, cli: 'claude', cwd, env: env2, logs: projectDir(env2.CLAUDE_CONFIG_DIR, cwd) }, { line: 3, at: 40 });
});

s('ingest without a session named follows nothing, not even the one new log, and says why', async () => {
  const env2 = { ...env(), CLAUDE_CONFIG_DIR: join(dir, 'cc-unnamed') };
  await followsNothingUnnamed({ driver, cli: 'claude', cwd, env: env2, logs: projectDir(env2.CLAUDE_CONFIG_DIR, cwd) });
});

s('ingest of a named session: records from before `since` give no events, later ones do', async () => {
  const env2 = { ...env(), CLAUDE_CONFIG_DIR: join(dir, 'cc') };
  await followsNamedSession({ driver, cli: 'claude', cwd, env: env2, logs: projectDir(env2.CLAUDE_CONFIG_DIR, cwd) });
});

s('ingest of a new log whose reply was written before its prompt (captured): the prompt comes first', async () => {
  const env2 = { ...env(), CLAUDE_CONFIG_DIR: join(dir, 'cc') };
  const logs = projectDir(env2.CLAUDE_CONFIG_DIR, cwd);
  const since = new Date();
  const events: TranscriptEvent[] = [];
  const ing = await driver.ingest!({ cwd, env: env2, since, agentSession: 'reply-first', onEvent: (e) => events.push(e) });
  try {
    const at = new Date(since.getTime() + 60_000).toISOString();
    const lines = fixtureLines('claude', 'tui-reply-written-first.jsonl').map((l) => restamp(l, at));
    const prompt = lines.findIndex((l) => l.includes('"type":"user"'));
    // In the two writes the CLI made: the reply and its turn end, then the prompt and what the reply follows.
    mkdirSync(logs, { recursive: true });
    const log = join(logs, 'reply-first.jsonl');
    appendFileSync(log, `${lines.slice(0, prompt).join('\n')}\n`);
    await until(() => events.length > 0, 'the new log found');
    appendFileSync(log, `${lines.slice(prompt).join('\n')}\n`);
    await until(() => events.some((e) => e.type === 'turn_end'), 'the turn end');
    assert.equal(
      events.map((e) => e.type),
      ['session', 'user_text', 'agent_text', 'turn_end'],
    );
  } finally {
    await ing.dispose();
  }
});

s.run();
