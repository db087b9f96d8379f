// src/conversation/store/remembered-tabs.ts: the tabs of a directory, remembered for the next
// baton there. Nothing written (not even the state dir) when there is nothing to remember;
// the file private (0600 in a 0700 dir); one directory's tabs never another's; an unreadable
// file is no tabs rather than a failure.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rememberedTabs, rememberTabs } from '../../src/conversation/store/remembered-tabs.js';

const withHome = async (fn: (home: string) => Promise<void>) => {
  const home = mkdtempSync(join(tmpdir(), 'baton-tabs-'));
  try {
    await fn(home);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
};

test('nothing to remember and nothing remembered: no state dir is made', () =>
  withHome(async (home) => {
    await rememberTabs(home, '/work/a', []);
    assert.not.ok(existsSync(join(home, 'tabs')));
    assert.equal(rememberedTabs(home, '/work/a'), []);
  }));

test("a directory's tabs come back as remembered, privately, and only for that directory", () =>
  withHome(async (home) => {
    const tabs = [
      { conversation: 'c1', agent: 'claude' },
      { conversation: 'c2', agent: 'codex', model: 'o3' },
    ];
    await rememberTabs(home, '/work/a', tabs);
    assert.equal(rememberedTabs(home, '/work/a'), tabs);
    assert.equal(rememberedTabs(home, '/work/b'), []);
    const [file] = readdirSync(join(home, 'tabs'));
    assert.is(statSync(join(home, 'tabs')).mode & 0o777, 0o700);
    assert.is(statSync(join(home, 'tabs', file!)).mode & 0o777, 0o600);
    // Closing the last tab remembers none (the file stays, saying so).
    await rememberTabs(home, '/work/a', []);
    assert.equal(rememberedTabs(home, '/work/a'), []);
  }));

test('an unreadable file is no tabs, not a failure', () =>
  withHome(async (home) => {
    await rememberTabs(home, '/work/a', [{ conversation: 'c1', agent: 'claude' }]);
    const [file] = readdirSync(join(home, 'tabs'));
    writeFileSync(join(home, 'tabs', file!), '{ torn');
    assert.equal(rememberedTabs(home, '/work/a'), []);
  }));

test.run();
