// real CLIs: qwen
// `baton agents install` (issue #14 item 5) from nothing: a PATH holding only node, and a
// local npm registry stand-in serving Qwen Code 0.15.10 packed from .cache/clis (no network
// needed, so CI without one runs it too). The install lands in baton's prefix under
// XDG_DATA_HOME (0700, never global), baton then finds it there, and the installed CLI runs a
// `baton chat` turn against the fake LLM. A registry that cannot be reached is exit 17 with
// a message naming it, and leaves nothing in the prefix; an unknown agent is exit 2; a
// qwen the user has on their own PATH wins over baton's copy.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, lstatSync, mkdirSync, readdirSync, readlinkSync, realpathSync, statSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { main } from '../../src/cli.js';
import { bufferIo } from '../../src/commands/io.js';
import { startFakeLlm, type FakeLlm } from '../fake-llm/server.js';
import { CLI_BIN_DIR, REPO_ROOT } from '../helpers/cli-env.js';
import { multiCliEnv, type MultiCliEnv } from '../helpers/multi-cli-env.js';
import { closedRegistryUrl, startLocalRegistry, type LocalRegistry } from '../helpers/local-npm-registry.js';

const QWEN_PKG = '@qwen-code/qwen-code';
const s = suite('baton agents install');
let fake: FakeLlm;
let menv: MultiCliEnv;
let registry: LocalRegistry;
let env: Record<string, string>;

s.before(async () => {
  registry = await startLocalRegistry({ [QWEN_PKG]: join(REPO_ROOT, '.cache/clis/node_modules', QWEN_PKG) });
});
s.after(async () => {
  await registry.close();
});
s.before.each(async () => {
  fake = await startFakeLlm();
  menv = multiCliEnv({ fakeUrl: fake.url, names: ['qwen'] });
  // Nothing but node on the PATH: no agent CLI, no npm of the machine's.
  const nodeOnly = join(menv.dir, 'node-only');
  mkdirSync(nodeOnly);
  symlinkSync(process.execPath, join(nodeOnly, 'node'));
  env = {
    ...menv.env,
    PATH: nodeOnly,
    BATON_HOME: join(menv.dir, 'baton-home'),
    XDG_CONFIG_HOME: join(menv.dir, 'config'),
    XDG_DATA_HOME: join(menv.dir, 'data'),
    npm_config_registry: registry.url,
  };
});
s.after.each(async () => {
  await menv.cleanup();
  await fake.close();
});

async function baton(args: string[], e = env): Promise<{ code: number; out: string; err: string }> {
  const io = bufferIo(e, menv.cwd);
  const code = await main(args, io);
  return { code, out: io.stdout(), err: io.stderr() };
}

const agentsDir = () => join(env.XDG_DATA_HOME!, 'baton/agents');

s('with no agent CLI anywhere, install qwen from the registry stand-in; baton finds it and it runs a turn against the fake LLM', async () => {
  const before = JSON.parse((await baton(['agents', '--json'])).out) as { name: string; installed: boolean; installHint?: string }[];
  const q0 = before.find((r) => r.name === 'qwen')!;
  assert.is(q0.installed, false);
  assert.match(q0.installHint ?? '', 'baton agents install qwen');

  const r = await baton(['agents', 'install', 'qwen']);
  assert.is(r.code, 0, r.err);
  assert.match(r.out, `installed Qwen Code 0.15.10 (${QWEN_PKG}) in ${join(agentsDir(), 'qwen')}`);
  assert.match(r.out, `baton runs it from ${join(agentsDir(), 'bin/qwen')}`);
  assert.match(r.err, 'downloading');
  assert.match(r.err, 'next: it needs');
  assert.ok(
    registry.served.some((p) => p.endsWith('.tgz')),
    `the tarball came from the stand-in: ${registry.served.join(', ')}`,
  );
  // Baton's own prefix, private, with only the finished install and the link in it.
  assert.is(statSync(agentsDir()).mode & 0o777, 0o700);
  assert.is(statSync(join(agentsDir(), 'qwen')).mode & 0o777, 0o700);
  assert.equal(readdirSync(agentsDir()).sort(), ['bin', 'qwen']);
  assert.ok(lstatSync(join(agentsDir(), 'bin/qwen')).isSymbolicLink());
  assert.is(readlinkSync(join(agentsDir(), 'bin/qwen')), '../qwen/node_modules/.bin/qwen');
  assert.not.ok(existsSync(join(menv.home, '.npm-global')), 'nothing global');

  const after = JSON.parse((await baton(['agents', '--json'])).out) as {
    name: string;
    installed: boolean;
    version?: string;
    path?: string;
    warning?: string;
  }[];
  const q = after.find((x) => x.name === 'qwen')!;
  assert.is(q.installed, true);
  assert.is(q.version, '0.15.10');
  assert.is(q.path, join(agentsDir(), 'bin/qwen'));
  assert.is(q.warning, undefined);

  const chat = await baton(['chat', '--json', '--timeout', '240', '--new', '--agent', 'qwen', 'Installed by baton: INSTALLED-QWEN-7301']);
  assert.is(chat.code, 0, chat.err);
  const turn = JSON.parse(chat.out) as { agent: string; entries: { kind: string; text?: string }[] };
  assert.is(turn.agent, 'qwen');
  assert.ok(
    turn.entries.some((e) => e.kind === 'agent_text' && e.text?.includes('INSTALLED-QWEN-7301')),
    JSON.stringify(turn.entries),
  );
  assert.ok(fake.requestsContaining('INSTALLED-QWEN-7301').length > 0, 'the turn reached the fake LLM');

  // A qwen on the user's own PATH comes first: baton's copy is the fallback.
  const own = await baton(['agents', '--json'], { ...env, PATH: `${env.PATH}:${CLI_BIN_DIR}` });
  const mine = (JSON.parse(own.out) as { name: string; path?: string }[]).find((x) => x.name === 'qwen')!;
  assert.is(realpathSync(mine.path!), realpathSync(join(CLI_BIN_DIR, 'qwen')));
});

s('a registry that cannot be reached: exit 17 naming it, nothing left in the prefix', async () => {
  const closed = await closedRegistryUrl();
  const r = await baton(['agents', 'install', 'qwen'], { ...env, npm_config_registry: closed });
  assert.is(r.code, 17, r.err);
  assert.match(r.err, `baton: cannot reach the npm registry at ${closed} to install ${QWEN_PKG}@0.15.10`);
  assert.match(r.err, 'nothing was installed');
  assert.equal(existsSync(agentsDir()) ? readdirSync(agentsDir()) : [], []);
  const q = (JSON.parse((await baton(['agents', '--json'])).out) as { name: string; installed: boolean }[]).find((x) => x.name === 'qwen')!;
  assert.is(q.installed, false);
});

s('an unknown agent or a version the registry lacks: exit 2, nothing installed', async () => {
  const r = await baton(['agents', 'install', 'vim']);
  assert.is(r.code, 2, r.err);
  assert.match(r.err, "baton cannot install an agent called 'vim'");
  assert.match(r.err, 'claude, codex, gemini, opencode, qwen');
  const v = await baton(['agents', 'install', 'qwen', '--version', '0.0.1']);
  assert.is(v.code, 2, v.err);
  assert.match(v.err, `has no ${QWEN_PKG}@0.0.1`);
  assert.equal(existsSync(agentsDir()) ? readdirSync(agentsDir()) : [], []);
});

s.run();
