// src/plugins/normalize-driver.ts: what a plugin writes becomes what baton uses. Defaults
// for the fields a driver may leave out, capability fields baton does not read left out, a
// launch's env filled in whether launch() is sync or async, the tested-range verdict on
// what detect() found (the only place a version meets testedVersions), and the optional
// methods still called on the definition itself.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { AgentStatus, DetectResult, DriverDefinition, DriverEnv, LaunchOptions, LaunchSpecDefinition } from '../../src/plugins/api.js';
import { driverProblems } from '../../src/plugins/validate.js';
import { DEFAULT_CAPABILITIES, normalizeDriver, withTestedRange } from '../../src/plugins/normalize-driver.js';

const s = suite('normalize-driver');

const opts: LaunchOptions = { cwd: '/w', env: {} };
const minimal = (more: Partial<DriverDefinition> = {}): DriverDefinition => ({
  name: 'min',
  title: 'Minimal',
  detect: async () => ({ installed: false, installHint: 'get it' }),
  launch: ({ cwd }) => ({ command: 'min', args: [], cwd }),
  ...more,
});

s('left out: no families, no resume, no fork, tabSession true, no env additions', async () => {
  const def = minimal();
  assert.equal(driverProblems(def), []);
  const d = normalizeDriver(def);
  assert.equal(d.families, []);
  assert.equal(d.capabilities, DEFAULT_CAPABILITIES);
  const { resume, fork, tabSession, tab } = d.capabilities;
  assert.equal({ resume, fork, tabSession, tab }, { resume: false, fork: false, tabSession: true, tab: true }, 'the defaults the contract states');
  assert.equal(d.launch(opts), { command: 'min', args: [], env: {}, cwd: '/w' });
});

s('given: kept as written; a partial capabilities object gets the rest from the defaults', () => {
  const d = normalizeDriver(minimal({ families: ['qwen'], capabilities: { resume: true, tabSession: false } }));
  assert.equal(d.families, ['qwen']);
  assert.equal(d.capabilities, { ...DEFAULT_CAPABILITIES, resume: true, tabSession: false });
  assert.is(
    normalizeDriver(minimal({ capabilities: { enterWithPaste: true } })).capabilities.enterWithPaste,
    true,
    'Enter in the same write as the paste, as declared',
  );
  assert.equal(driverProblems(minimal({ capabilities: { enterWithPaste: 'yes' as unknown as boolean } })), [
    'capabilities.enterWithPaste: expected true or false, got "yes"',
  ]);
});

s('capability fields baton does not read (planMode, submit, anything newer) pass validation and are left out', () => {
  const legacy = { ...minimal(), capabilities: { resume: true, fork: true, planMode: true, submit: 'paste', modes: ['plan'] } };
  assert.equal(driverProblems(legacy), []);
  assert.equal(normalizeDriver(legacy as DriverDefinition).capabilities, { ...DEFAULT_CAPABILITIES, resume: true, fork: true });
  // The fields baton does read are still checked.
  assert.equal(driverProblems({ ...minimal(), capabilities: { resume: 'yes' } }), ['capabilities.resume: expected true or false, got "yes"']);
  assert.equal(driverProblems({ ...minimal(), capabilities: 3 }), ['capabilities: expected an object, got 3']);
  assert.equal(driverProblems({ ...minimal(), families: 'qwen' }), ['families: expected an array of strings, got "qwen"']);
});

s('an async launch gets its env filled in too; an env given is kept', async () => {
  const d = normalizeDriver(minimal({ launch: async ({ cwd }) => ({ command: 'min', args: ['-x'], cwd }) }));
  const spec = d.launch(opts);
  assert.instance(spec, Promise);
  assert.equal(await spec, { command: 'min', args: ['-x'], env: {}, cwd: '/w' });
  const withEnv = normalizeDriver(minimal({ launch: ({ cwd }) => ({ command: 'min', args: [], env: { A: '1' }, cwd }) }));
  assert.equal((await withEnv.launch(opts)).env, { A: '1' });
});

s("the tested-range verdict: outside is flagged with the range; inside, unreadable or no range is not; a driver's own claim is dropped", () => {
  const found = (version?: string, extra: object = {}): DetectResult => ({ installed: true, installHint: 'x', ...(version ? { version } : {}), ...extra });
  assert.equal(withTestedRange(found('0.16.0'), '>=0.15.0 <0.16'), { ...found('0.16.0'), untestedVersion: '>=0.15.0 <0.16' });
  assert.equal(withTestedRange(found('qwen 0.15.10'), '0.15.x'), found('qwen 0.15.10'));
  assert.equal(withTestedRange(found('nightly'), '0.15.x'), found('nightly'));
  assert.equal(withTestedRange(found(), '0.15.x'), found());
  assert.equal(withTestedRange(found('9.9.9'), undefined), found('9.9.9'));
  assert.equal(withTestedRange(found('0.15.1', { untestedVersion: 'made up' }), '0.15.x'), found('0.15.1'));
});

s("detect() of the normalized driver carries the verdict on the definition's testedVersions", async () => {
  const d = normalizeDriver(minimal({ testedVersions: '2.1.197', detect: async () => ({ installed: true, version: '2.1.198', installHint: 'x' }) }));
  assert.equal(await d.detect({ env: {} }), { installed: true, version: '2.1.198', installHint: 'x', untestedVersion: '2.1.197' });
});

s('a driver that is a class instance keeps its prototype methods and its `this`; extra fields stay reachable', async () => {
  class Cli implements DriverDefinition {
    name = 'cls';
    title = 'Class driver';
    endDaemons = () => 'extra';
    private readonly bin = 'cls-bin';
    async detect(_: DriverEnv): Promise<DetectResult> {
      return { installed: true, path: this.bin, installHint: 'x' };
    }
    launch(o: LaunchOptions): LaunchSpecDefinition {
      return { command: this.bin, args: [], cwd: o.cwd };
    }
    statusFromScreen(): AgentStatus | undefined {
      return this.bin === 'cls-bin' ? 'idle' : undefined;
    }
  }
  const d = normalizeDriver(new Cli());
  assert.equal(await d.detect({ env: {} }), { installed: true, path: 'cls-bin', installHint: 'x' });
  assert.is((await d.launch(opts)).command, 'cls-bin');
  assert.is(d.statusFromScreen!([]), 'idle');
  assert.is((d as unknown as { endDaemons(): string }).endDaemons(), 'extra');
  assert.is(d.headless, undefined);
});

s("accounts: off unless declared; login's env filled in like a launch's, loginStatus kept; a login that is no function is a problem", async () => {
  assert.is(normalizeDriver(minimal()).capabilities.accounts, false);
  assert.is(normalizeDriver(minimal()).login, undefined);
  const def = minimal({
    capabilities: { accounts: true },
    login: ({ cwd, account }) => ({ command: 'min', args: ['login', account ?? 'own'], cwd }),
    loginStatus: async ({ account }) => ({ loggedIn: account === 'work' }),
  });
  assert.equal(driverProblems(def), []);
  const d = normalizeDriver(def);
  assert.is(d.capabilities.accounts, true);
  assert.equal(d.login!({ env: {}, cwd: '/w', account: 'work' }), { command: 'min', args: ['login', 'work'], cwd: '/w', env: {} });
  assert.equal(await d.loginStatus!({ env: {}, account: 'work' }), { loggedIn: true });
  assert.equal(driverProblems({ ...minimal(), login: 'claude auth login' }), ['login: expected a function, got "claude auth login"']);
  assert.equal(driverProblems({ ...minimal(), capabilities: { accounts: 'yes' } }), ['capabilities.accounts: expected true or false, got "yes"']);
});

s('validation covers every capability and optional method the driver takes (one list with normalizeDriver)', () => {
  // capabilities.tab, acp and localEndpoint were taken but never checked: a bad value reached the registry.
  assert.equal(driverProblems({ ...minimal(), capabilities: { tab: 'no' } }), ['capabilities.tab: expected true or false, got "no"']);
  assert.equal(driverProblems({ ...minimal(), acp: 5 } as never), ['acp: expected a function, got 5']);
  assert.equal(driverProblems({ ...minimal(), localEndpoint: 'x' } as never), ['localEndpoint: expected a function, got "x"']);
});

s.run();
