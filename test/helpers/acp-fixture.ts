// The fixture ACP agent (test/fixtures/acp-agent/agent.mjs) as baton users would add it:
// a drop-in file in a plugin directory that declares it through the kit's acpDriver.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const fixtureAgent = fileURLToPath(new URL('../fixtures/acp-agent/agent.mjs', import.meta.url));

export interface FixtureDecl {
  name?: string;
  title?: string;
  command?: string;
  fs?: boolean;
  terminal?: boolean;
  families?: string[];
  testedVersions?: string;
  env?: Record<string, string>;
  /** Advertise and implement session/fork (ACP_FIXTURE_FORK=1 in its env). */
  fork?: boolean;
}

/** The declaration the drop-in passes to kit.acpDriver: node running the fixture agent. */
export function fixtureDecl(d: FixtureDecl = {}): Record<string, unknown> {
  return {
    name: d.name ?? 'acp-fixture',
    title: d.title ?? 'ACP fixture agent',
    command: d.command ?? process.execPath,
    args: [fixtureAgent],
    versionArgs: [fixtureAgent, '--version'],
    installHint: 'it ships with baton’s tests: test/fixtures/acp-agent',
    ...(d.fs === undefined ? {} : { fs: d.fs }),
    ...(d.terminal === undefined ? {} : { terminal: d.terminal }),
    ...(d.families ? { families: d.families } : {}),
    ...(d.testedVersions ? { testedVersions: d.testedVersions } : {}),
    ...(d.env || d.fork ? { env: { ...d.env, ...(d.fork ? { ACP_FIXTURE_FORK: '1' } : {}) } } : {}),
  };
}

/** Write `<dir>/<file>` declaring the fixture agent; returns its path. */
export function writeFixtureDropIn(dir: string, d: FixtureDecl = {}, file = `${d.name ?? 'acp-fixture'}.mjs`): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, file);
  writeFileSync(path, `export default (kit) => kit.acpDriver(${JSON.stringify(fixtureDecl(d), null, 2)});\n`);
  return path;
}
