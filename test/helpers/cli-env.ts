// An isolated home for one real agent CLI in a test: a fresh scratch dir holding HOME,
// TMPDIR and a work dir, the config files and environment that make the CLI talk only
// to the fake LLM (auto-update off everywhere: qwen's TUI otherwise updates itself
// globally through npm), and PATH with the pinned CLIs in .cache/clis first.
// cleanup() ends every process still running from inside that scratch dir (codex's TUI
// leaves a detached app-server daemon) by pid, then removes the dir.
// The pieces (scratchHome, setupCli) are exported so multi-cli-env.ts can
// put several CLIs in one home.
// It must never touch the real home, install anything, or kill a process by name.
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { endPids, processesUnder } from '../../src/proc/index.js';

export type CliName = 'claude' | 'codex' | 'gemini' | 'qwen' | 'opencode' | 'codex-acp' | 'claude-code-acp';

export const CLI_NAMES: readonly CliName[] = ['claude', 'codex', 'gemini', 'qwen', 'opencode', 'codex-acp', 'claude-code-acp'];

export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
export const CLI_BIN_DIR = join(REPO_ROOT, '.cache/clis/node_modules/.bin');

export const FAKE_MODEL = 'fake-model';

export interface CliEnvOptions {
  /** The fake LLM's base URL, e.g. http://127.0.0.1:PORT (no /v1). */
  fakeUrl: string;
  /** Where the scratch dir is made (default: the OS temp dir). */
  root?: string;
  /** The project dir the CLI runs in; trusted in its config. Default: a fresh `work` dir in the scratch dir. */
  cwd?: string;
}

export interface CliEnv {
  name: CliName;
  /** The scratch dir: home/, tmp/, work/ live in it; cleanup() removes it. */
  dir: string;
  home: string;
  /** The project dir to run the CLI in. */
  cwd: string;
  /** A complete environment for the child (not merged with process.env again). PWD is
   * set to cwd: spawn the CLI in cwd, or set PWD to the dir you spawn it in. */
  env: Record<string, string>;
  /** Absolute path of the CLI's command in .cache/clis. */
  bin: string;
  cleanup(): Promise<void>;
}

export function cliBin(name: CliName): string {
  return join(CLI_BIN_DIR, name);
}

export function cliInstalled(name: CliName): boolean {
  return existsSync(cliBin(name));
}

export function cliEnv(name: CliName, opts: CliEnvOptions): CliEnv {
  const bin = requireBin(name);
  const { dir, home, cwd, env } = scratchHome(name, opts);
  Object.assign(env, setupCli(name, { home, cwd, fakeUrl: opts.fakeUrl }));
  return { name, dir, home, cwd, env, bin, cleanup: () => cleanupDir(dir) };
}

/** The CLI's command in .cache/clis, or an error saying how to install it. */
export function requireBin(name: CliName): string {
  const bin = cliBin(name);
  if (!existsSync(bin)) {
    throw new Error(`${name} is not installed in ${CLI_BIN_DIR}; run: node scripts/install-test-clis.mjs`);
  }
  return bin;
}

export interface ScratchHome {
  dir: string;
  home: string;
  cwd: string;
  /** The base environment: the caller's minus what could redirect a CLI, HOME/XDG/TMPDIR in the scratch dir, PATH with .cache/clis first. */
  env: Record<string, string>;
}

/** A fresh scratch dir (home/, tmp/, work/ or opts.cwd) and the environment every CLI shares in it. */
export function scratchHome(label: string, opts: Pick<CliEnvOptions, 'root' | 'cwd'>): ScratchHome {
  const dir = realpathSync(mkdtempSync(join(opts.root ?? tmpdir(), `baton-${label}-`)));
  const home = join(dir, 'home');
  const tmp = join(dir, 'tmp');
  const cwd = opts.cwd ?? join(dir, 'work');
  for (const d of [home, tmp, cwd]) mkdirSync(d, { recursive: true, mode: 0o700 });
  const env: Record<string, string> = {
    ...baseEnv(),
    HOME: home,
    // opencode takes its project dir from $PWD, not from its real cwd.
    PWD: cwd,
    TMPDIR: tmp,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local/share'),
    XDG_STATE_HOME: join(home, '.local/state'),
    XDG_CACHE_HOME: join(home, '.cache'),
    PATH: `${CLI_BIN_DIR}:${process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin'}`,
  };
  return { dir, home, cwd, env };
}

export interface CliSetupOptions {
  home: string;
  /** The project dir; trusted in the CLI's config. */
  cwd: string;
  fakeUrl: string;
  /** More dirs to trust (claude, codex), e.g. worktrees made later under a known path. */
  trust?: string[];
}

/**
 * Writes one CLI's config files under home and returns the environment variables it
 * needs against the fake LLM. Each CLI has files of its own (claude and claude-code-acp,
 * codex and codex-acp write the same ones with the same content), so several CLIs can
 * share one home.
 */
export function setupCli(name: CliName, opts: CliSetupOptions): Record<string, string> {
  const { home, cwd } = opts;
  const fake = opts.fakeUrl.replace(/\/+$/, '');
  const env: Record<string, string> = {};
  const trusted = [...new Set([cwd, safeRealpath(cwd), ...(opts.trust ?? []).flatMap((p) => [p, safeRealpath(p)])])];

  switch (name) {
    case 'claude':
    case 'claude-code-acp':
      Object.assign(env, {
        ANTHROPIC_BASE_URL: fake,
        // A Bearer token, not ANTHROPIC_API_KEY: the TUI asks about a custom API key with "No" as default.
        ANTHROPIC_AUTH_TOKEN: 'fake-token',
        DISABLE_AUTOUPDATER: '1',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        DISABLE_TELEMETRY: '1',
        DISABLE_ERROR_REPORTING: '1',
        // As root, bypassPermissions (and claude-code-acp's session/new) refuse without it.
        IS_SANDBOX: '1',
      });
      writeJson(join(home, '.claude.json'), {
        hasCompletedOnboarding: true,
        autoUpdates: false,
        bypassPermissionsModeAccepted: true,
        projects: Object.fromEntries(trusted.map((p) => [p, { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true }])),
      });
      break;
    case 'codex':
    case 'codex-acp': {
      const codexHome = join(home, '.codex');
      Object.assign(env, { CODEX_HOME: codexHome, FAKE_API_KEY: 'sk-fake' });
      const projects = trusted.map((p) => `[projects.${JSON.stringify(p)}]\ntrust_level = "trusted"\n`).join('\n');
      writeText(
        join(codexHome, 'config.toml'),
        [
          `model = "${FAKE_MODEL}"`,
          'model_provider = "fake"',
          'check_for_update_on_startup = false',
          '',
          '[model_providers.fake]',
          'name = "Fake"',
          `base_url = ${JSON.stringify(`${fake}/v1`)}`,
          'env_key = "FAKE_API_KEY"',
          'wire_api = "responses"',
          '',
          projects,
        ].join('\n'),
      );
      break;
    }
    case 'gemini':
      Object.assign(env, { GEMINI_API_KEY: 'fake-key', GOOGLE_GEMINI_BASE_URL: fake });
      writeJson(join(home, '.gemini/settings.json'), {
        general: {
          enableAutoUpdate: false,
          enableAutoUpdateNotification: false,
          // Retention cleanup deletes a session that ACP session/load just loaded.
          sessionRetention: { enabled: false },
        },
        privacy: { usageStatisticsEnabled: false },
        security: { auth: { selectedType: 'gemini-api-key' }, folderTrust: { enabled: false } },
        telemetry: { enabled: false },
      });
      break;
    case 'qwen':
      Object.assign(env, { OPENAI_BASE_URL: `${fake}/v1`, OPENAI_API_KEY: 'sk-fake', OPENAI_MODEL: FAKE_MODEL });
      writeJson(join(home, '.qwen/settings.json'), {
        // IMPORTANT: without this, qwen's TUI runs `npm install -g` of its latest release.
        general: { enableAutoUpdate: false },
        privacy: { usageStatisticsEnabled: false },
        security: { auth: { selectedType: 'openai' } },
        telemetry: { enabled: false },
      });
      break;
    case 'opencode':
      Object.assign(env, {
        OPENCODE_DISABLE_AUTOUPDATE: '1',
        OPENCODE_DISABLE_MODELS_FETCH: '1',
        OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
        OPENCODE_DISABLE_SHARE: '1',
        OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
        OPENCODE_CONFIG_CONTENT: JSON.stringify(opencodeConfig(fake)),
      });
      break;
  }
  return env;
}

export function opencodeConfig(fake: string): Record<string, unknown> {
  return {
    $schema: 'https://opencode.ai/config.json',
    autoupdate: false,
    share: 'disabled',
    model: `fake/${FAKE_MODEL}`,
    small_model: `fake/${FAKE_MODEL}`,
    provider: {
      fake: {
        npm: '@ai-sdk/openai-compatible',
        name: 'Fake',
        options: { baseURL: `${fake}/v1`, apiKey: 'sk-fake' },
        models: { [FAKE_MODEL]: { name: 'Fake Model' } },
      },
    },
  };
}

// The caller's environment minus whatever could point a CLI elsewhere or change its
// mode: other credentials and endpoints, XDG dirs, npm's variables, NODE_OPTIONS (tsx),
// and CI markers (gemini and qwen refuse their TUI when they think they run in CI).
const DROP = /^(ANTHROPIC_|CLAUDE|OPENAI_|GEMINI_|GOOGLE_|CODEX_|QWEN_|OPENCODE_|XDG_|npm_|CI_|BATON_)/;
const DROP_EXACT = new Set(['CI', 'CONTINUOUS_INTEGRATION', 'NODE_OPTIONS', 'FORCE_COLOR', 'NO_COLOR', 'IS_SANDBOX', 'TMPDIR', 'TMUX', 'TMUX_PANE']);

function baseEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined || DROP.test(k) || DROP_EXACT.has(k)) continue;
    env[k] = v;
  }
  env.TERM ??= 'xterm-256color';
  env.LANG ??= 'C.UTF-8';
  return env;
}

function writeJson(file: string, value: unknown): void {
  writeText(file, `${JSON.stringify(value, null, 2)}\n`);
}

function writeText(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  writeFileSync(file, text, { mode: 0o600 });
}

function safeRealpath(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

/**
 * Ends, by pid, every process (other than this one) whose executable, cwd or command line
 * lies under dir: what a CLI left behind there, such as codex's detached app-server daemon
 * and its restart loop (src/proc's endPids: TERM, then rounds of STOP + KILL). Returns
 * every pid it signalled.
 */
export function killProcessesUnder(dir: string, graceMs = 2000): Promise<number[]> {
  return endPids(() => processesUnder(dir), { graceMs });
}

/** Ends every process left under dir (by pid), then removes it. */
export async function cleanupDir(dir: string): Promise<void> {
  await killProcessesUnder(dir);
  rmSync(dir, { recursive: true, force: true });
}
