// Makes the opencode session a tab's TUI will open, before the TUI starts, so baton knows its
// id: opencode's TUI takes no id for a new session (and `--fork` forks into one nobody is
// told), and two TUIs in one directory cannot be told apart by which session appeared first.
// A fresh run: an empty session with an id baton chose, brought in through opencode's own
// `opencode import <file>` (run in the tab's directory, so opencode files it under that
// directory's project itself; ≈2 s, no model request), then checked in the session table. A
// fork: `session/fork` over ACP (acp-fork-session.ts), opencode's own fork, whose answer is
// the new id. The TUI then opens it with `--session <id>`. It writes only its own temp file
// (0600, in a 0700 dir, removed at once); opencode's database is only read.

import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { acpForkSession, BatonError, cannotStartCli, EXIT, findExecutable, runGroup } from '../../src/plugins/kit.js';
import { opencodeAcpDecl } from './headless.js';
import { OPENCODE_INSTALL_HINT, OPENCODE_VERSION, opencodeAccountEnv, opencodeDbPath } from './home.js';
import { OpencodeDb } from './log-db.js';

const IMPORT_TIMEOUT_MS = 60_000;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * A new session id in opencode's own shape: `ses_`, 12 hex digits of the creation time
 * (ms × 4096 + opencode's per-ms counter, here its first value 1; bits inverted so newer
 * sessions sort first, as opencode's "descending" ids do), 14 random base-62 characters.
 */
export function newOpencodeSessionId(now = Date.now(), random: Buffer = randomBytes(14)): string {
  const time = ~(BigInt(now) * 0x1000n + 1n) & 0xffffffffffffn;
  let tail = '';
  for (let i = 0; i < 14; i++) tail += BASE62[random[i]! % 62];
  return `ses_${time.toString(16).padStart(12, '0')}${tail}`;
}

/** What `opencode import` takes for an empty session (the shape `opencode export` writes). */
export function emptySessionFile(id: string, cwd: string, now = Date.now()): string {
  return JSON.stringify({
    info: {
      id,
      slug: `baton-${id.slice(-6).toLowerCase()}`,
      // opencode replaces it with the project of the directory it runs in (a git repository's
      // first commit, else "global").
      projectID: 'global',
      directory: cwd,
      // opencode's own default title, so it still names the session after its first message.
      title: `New session - ${new Date(now).toISOString()}`,
      version: OPENCODE_VERSION,
      time: { created: now, updated: now },
    },
    messages: [],
  });
}

interface MakeOptions {
  env: NodeJS.ProcessEnv;
  account?: string;
  cwd: string;
}

/** Session `id` in the database of `account`, looked up from the user's own `env` (not the CLI's, which has the account's XDG dirs in it already). */
async function sessionThere(env: NodeJS.ProcessEnv, account: string | undefined, id: string): Promise<{ directory: string } | undefined> {
  const path = opencodeDbPath(env, account);
  if (!path) return undefined;
  let db: OpencodeDb;
  try {
    db = await OpencodeDb.open(path);
  } catch (err) {
    if (err instanceof BatonError) throw err;
    return undefined; // no database yet: opencode makes it on its first run
  }
  try {
    return db.session(id);
  } finally {
    db.close();
  }
}

/** Imports an empty session for `cwd` and returns its id; BatonError (exit 3 or 4) when opencode cannot. */
export async function importEmptySession(opts: MakeOptions): Promise<string> {
  const env = { ...opts.env, ...opencodeAccountEnv(opts.env, opts.account), PWD: opts.cwd };
  const path = findExecutable('opencode', env, opts.cwd);
  if (!path) throw new BatonError('opencode is not installed (no opencode on PATH)', EXIT.agentNotInstalled, OPENCODE_INSTALL_HINT);
  let id = newOpencodeSessionId();
  // Importing an id opencode has already "succeeds" and changes nothing: never reuse one.
  while (await sessionThere(opts.env, opts.account, id)) id = newOpencodeSessionId();
  const dir = mkdtempSync(join(tmpdir(), 'baton-opencode-'));
  try {
    const file = join(dir, `${id}.json`);
    writeFileSync(file, emptySessionFile(id, opts.cwd), { mode: 0o600 });
    let run: Awaited<ReturnType<typeof runGroup>>;
    try {
      run = await runGroup(path, ['import', file], { cwd: opts.cwd, env, timeoutMs: IMPORT_TIMEOUT_MS });
    } catch (err) {
      throw cannotStartCli('opencode', path, OPENCODE_INSTALL_HINT)(err as NodeJS.ErrnoException);
    }
    const row = await sessionThere(opts.env, opts.account, id);
    if (run.code !== 0 || !row) {
      const said = `${run.stdout}\n${run.stderr}`
        .replace(/\x1b\[[0-9;]*m/g, '')
        .trim()
        .split('\n')
        .slice(-3)
        .join('\n');
      throw new BatonError(
        `opencode could not make a session for this tab (opencode import: ${run.timedOut ? 'timed out' : `exit ${run.code ?? run.signal}`})`,
        EXIT.agentFailed,
        said || undefined,
      );
    }
    return id;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Forks `session` through opencode's own ACP session/fork and returns the new id. */
export function forkSession(opts: MakeOptions & { session: string }): Promise<string> {
  const { decl } = opencodeAcpDecl({ env: opts.env, cwd: opts.cwd, account: opts.account, yes: true });
  return acpForkSession(decl, { env: opts.env, cwd: opts.cwd, session: opts.session });
}
