// real CLIs: claude
// `baton agents install` runs the install scripts the CLI needs once npm runs only the ones
// a project allows: npm 11 warns on unreviewed install scripts and a later npm skips them.
// npm's strict-allow-scripts (npm 11's switch that refuses them instead) stands in for that
// npm here: without allowScripts in the prefix's package.json the install is refused. Claude
// Code's postinstall (install.cjs) puts its platform package's native binary over the
// bin/claude.exe placeholder; skipped, `claude` stays the placeholder. The local registry
// stand-in serves Claude Code's own package.json, install.cjs and cli-wrapper.cjs and its
// platform package's package.json, from .cache/clis, each with a small file in place of the
// binary (the real one is ~240 MB): the test checks which of the two `claude` ends up as.
// The user's npm_config_allow_scripts (npm refuses it from the environment in such an
// install) does not stop it.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../src/cli.js';
import { bufferIo } from '../../src/commands/io.js';
import { REPO_ROOT } from '../helpers/cli-env.js';
import { startLocalRegistry, type LocalRegistry } from '../helpers/local-npm-registry.js';

const SCOPE = join(REPO_ROOT, '.cache/clis/node_modules/@anthropic-ai');
const WRAPPER = '@anthropic-ai/claude-code';
const PLACEHOLDER = 'claude placeholder: the postinstall did not run\n';
const NATIVE = '#!/bin/sh\necho NATIVE-CLAUDE-STAND-IN\n';
const s = suite('baton agents install: install scripts');
let dir: string;
let registry: LocalRegistry;
let env: Record<string, string>;

s.before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'baton-agents-scripts-'));
  // The platform package npm installed for this machine in .cache/clis (claude-code-linux-x64 here).
  const platform = readdirSync(SCOPE).find((n) => n.startsWith('claude-code-'));
  assert.ok(platform, `a Claude Code platform package in ${SCOPE}`);
  const wrapper = join(dir, 'wrapper');
  mkdirSync(join(wrapper, 'bin'), { recursive: true });
  for (const f of ['package.json', 'install.cjs', 'cli-wrapper.cjs']) copyFileSync(join(SCOPE, 'claude-code', f), join(wrapper, f));
  writeFileSync(join(wrapper, 'bin/claude.exe'), PLACEHOLDER, { mode: 0o755 });
  const native = join(dir, 'native');
  mkdirSync(native);
  copyFileSync(join(SCOPE, platform!, 'package.json'), join(native, 'package.json'));
  writeFileSync(join(native, 'claude'), NATIVE, { mode: 0o755 });
  registry = await startLocalRegistry({ [WRAPPER]: wrapper, [`@anthropic-ai/${platform}`]: native });
  // Nothing but node and sh (npm runs install scripts with it) on the PATH, and a home of the
  // test's own (no npmrc of the machine's).
  const nodeOnly = join(dir, 'node-only');
  mkdirSync(nodeOnly);
  symlinkSync(process.execPath, join(nodeOnly, 'node'));
  symlinkSync('/bin/sh', join(nodeOnly, 'sh'));
  mkdirSync(join(dir, 'home'));
  mkdirSync(join(dir, 'work'));
  env = {
    HOME: join(dir, 'home'),
    PATH: nodeOnly,
    BATON_HOME: join(dir, 'baton-home'),
    XDG_CONFIG_HOME: join(dir, 'config'),
    XDG_DATA_HOME: join(dir, 'data'),
    npm_config_registry: registry.url,
    npm_config_strict_allow_scripts: 'true',
  };
});
s.after(async () => {
  await registry?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** `baton agents install claude` in `e`; its agents dir. */
async function installClaude(e: Record<string, string>): Promise<string> {
  const io = bufferIo(e, join(dir, 'work'));
  const code = await main(['agents', 'install', 'claude'], io);
  assert.is(code, 0, io.stderr());
  return join(e.XDG_DATA_HOME!, 'baton/agents');
}

s('with npm refusing unreviewed install scripts, claude installs and its postinstall puts the native binary in place', async () => {
  const agents = await installClaude(env);
  const manifest = JSON.parse(readFileSync(join(agents, 'claude/package.json'), 'utf8')) as { allowScripts?: Record<string, boolean> };
  assert.equal(manifest.allowScripts, { [WRAPPER]: true });
  assert.ok(
    registry.served.some((p) => p.includes('claude-code-') && p.endsWith('.tgz')),
    `the platform package came from the stand-in: ${registry.served.join(', ')}`,
  );
  // agents/bin/claude -> node_modules/.bin/claude -> bin/claude.exe, which install.cjs replaced.
  assert.is(readFileSync(join(agents, 'bin/claude'), 'utf8'), NATIVE);
});

// npm's allow-scripts setting is for npx and -g; from the environment, npm refuses it in an
// install with a package.json of its own (EALLOWSCRIPTS), which baton's prefix is.
s("the user's npm_config_allow_scripts (meant for npx and -g) does not stop the install", async () => {
  const agents = await installClaude({ ...env, XDG_DATA_HOME: join(dir, 'data-2'), npm_config_allow_scripts: 'esbuild' });
  assert.is(readFileSync(join(agents, 'bin/claude'), 'utf8'), NATIVE);
});

s.run();
