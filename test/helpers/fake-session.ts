// A TabSession on the in-memory CLI of fake-agent.ts, for the conversation layer's unit
// tests: a conversation in a temp home, the session started and idle. The suite that asks
// for them disposes each session and removes its home after every test.
import type { Test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TabSession } from '../../src/conversation/tab-session.js';
import type { TabSessionDeps } from '../../src/conversation/tab-session-state.js';
import type { HarnessDriver } from '../../src/plugins/api.js';
import { createConversation, type OpenConversation } from '../../src/transcript/store.js';
import { FakeTerminal, fakeDriver, registryOf, type FakeDriverOptions } from './fake-agent.js';
import { until } from './wait.js';

export interface FakeSession {
  term: FakeTerminal;
  session: TabSession;
  conv: OpenConversation;
}

/**
 * Starts sessions on fake CLIs for the tests of `s`, each ended after its test. `driver`: the
 * options of the one fake driver, or the drivers themselves (made on the terminal given), the
 * first of them started.
 */
export function fakeSessions(s: Test, prefix: string) {
  let home: string | undefined;
  let session: TabSession | undefined;
  s.after.each(async () => {
    await session?.dispose();
    if (home) rmSync(home, { recursive: true, force: true });
    session = undefined;
    home = undefined;
  });
  return async (driver: FakeDriverOptions | ((term: FakeTerminal) => HarnessDriver[]) = {}, deps: Partial<TabSessionDeps> = {}): Promise<FakeSession> => {
    home = mkdtempSync(join(tmpdir(), prefix));
    const conv = await createConversation(home, { cwd: home, title: 't', user: { type: 'user', name: 'tester', device: 'test' } });
    const term = new FakeTerminal();
    const drivers = typeof driver === 'function' ? driver(term) : [fakeDriver(term, driver)];
    session = new TabSession({ conversation: conv, registry: registryOf(...drivers), terminal: term, env: {}, deliveryTimeoutMs: 150, ...deps });
    const out = await session.start(drivers[0]!.name);
    assert.is(out.kind, 'started', out.message);
    term.output();
    const started = session;
    // Polled every 5 ms: a state awaited in these tests may last only moments.
    await until(() => started.status.current === 'idle', 'the fake CLI idle', 5000, 5);
    return { term, session: started, conv };
  };
}
