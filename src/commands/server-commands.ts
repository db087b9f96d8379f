// The server's commands, as tmux has them: `baton server` (runs one in the foreground; the
// first `baton` starts it this way, detached), `baton attach [-t TAB] [-r]`, `baton ls`,
// `baton kill-server`; `-L NAME` picks a server other than `default` for all of them and
// for `baton [open]`, and `--host [USER@]HOST` the server of another machine, through ssh
// and the hidden `baton proxy` there. The work is in src/server (the server) and src/client
// (the client, the ssh transport and the proxy).

import { attach } from '../client/attach.js';
import { connect } from '../client/connect.js';
import { proxy } from '../client/proxy.js';
import type { RemoteOptions } from '../client/ssh-command.js';
import { userAuthor } from '../conversation/user.js';
import { badInput, refused } from '../errors.js';
import type { TabListing } from '../server/tab-list.js';
import { decodeJson, FRAME, type Frame } from '../server/protocol.js';
import { DEFAULT_SERVER, socketPlace } from '../server/socket-place.js';
import { stripControls } from '../transcript/sanitize.js';
import { pluginDirs } from './plugin-dirs.js';
import type { Io } from './io.js';
import type { Argv } from './yargs.js';
import { restoreUserTunables } from '../server/server-malloc.js';

/** `-L NAME`, on every command that talks to a server. */
export const serverNameOption = {
  alias: 'L',
  type: 'string',
  default: DEFAULT_SERVER,
  describe: 'the server to use (several may run, each with its own tabs)',
} as const;

/** `--host` and `--remote-baton`, on every command that talks to a server. */
export const hostOptions = {
  host: { type: 'string', describe: 'the server of another machine, [USER@]HOST (anything ssh takes), reached through ssh' },
  'remote-baton': {
    type: 'string',
    describe: 'with --host: the path of baton on that host, when its PATH has none (default: BATON_REMOTE_COMMAND, else baton)',
  },
} as const;

/** The remote server the options name, or undefined for this machine's. */
export function remoteOf(a: { host?: string | undefined; 'remote-baton'?: string | undefined }, env: NodeJS.ProcessEnv): RemoteOptions | undefined {
  if (a.host === undefined) {
    if (a['remote-baton'] !== undefined) throw badInput('--remote-baton goes with --host', 'add --host [USER@]HOST');
    return undefined;
  }
  return {
    host: a.host,
    ...(a['remote-baton'] !== undefined ? { remoteBaton: a['remote-baton'] } : {}),
    ...(env.BATON_REMOTE_COMMAND ? { remoteCommand: env.BATON_REMOTE_COMMAND } : {}),
  };
}

async function ask(
  io: Io,
  request: { kind: 'ls' } | { kind: 'kill-server' },
  name: string,
  remote: RemoteOptions | undefined,
): Promise<Record<string, unknown> & { pid: number }> {
  const user = userAuthor(io.env);
  const conn = await connect({
    name,
    env: io.env,
    start: false,
    hello: { user: { name: user.name, device: user.device }, request, cols: 80, rows: 24 },
    ...(remote ? { remote } : {}),
  });
  const reply = await new Promise<Frame>((resolve, reject) => {
    conn.onFrame((f) => resolve(f));
    conn.transport.onClose((end) => reject(refused(`the ${conn.transport.label} closed the connection without an answer${end.lost ? `: ${end.lost}` : ''}`)));
  });
  conn.transport.close();
  return { ...(reply.type === FRAME.reply ? decodeJson<Record<string, unknown>>(reply) : {}), pid: conn.welcome.pid };
}

/** What `baton server` does: serves until the server ends (started detached by the first `baton`). */
export async function serve(io: Io, name: string): Promise<void> {
  // Before anything is started: baton's malloc setting stays the server's own.
  restoreUserTunables(process.env);
  restoreUserTunables(io.env);
  const place = socketPlace(io.env, name);
  // Loaded here: the server hosts the TUI, which the client commands never need.
  const { BatonServer } = await import('../server/server.js');
  const server = new BatonServer({ place, name, env: io.env, pluginDirs: pluginDirs(), log: (l) => io.err(`${new Date().toISOString()} ${l}\n`) });
  if (!(await server.start())) {
    io.err(`baton: a server named ${name} already runs (${place.path})\n`);
    return;
  }
  // Detached from any terminal: a hangup is not ours; SIGTERM ends it like kill-server.
  process.on('SIGHUP', () => undefined);
  process.on('SIGTERM', () => void server.end('SIGTERM'));
  process.on('SIGINT', () => void server.end('SIGINT'));
  await server.done;
}

export interface AttachArgs {
  L: string;
  t?: string | undefined;
  r: boolean;
  host?: string | undefined;
  'remote-baton'?: string | undefined;
}

/** What `baton attach` does, once its words are parsed (by yargs, or quick-command.ts). */
export async function attachClient(io: Io, a: AttachArgs, setExit: (code: number) => void): Promise<void> {
  const remote = remoteOf(a, io.env);
  setExit(
    await attach({
      name: a.L,
      env: io.env,
      // The directory matters only to a server whose view has yet to start; on another host, its home.
      cwd: remote ? '.' : io.cwd,
      start: false,
      readOnly: a.r,
      ...(a.t !== undefined ? { tab: a.t } : {}),
      ...(remote ? { remote } : {}),
      say: (l) => io.err(`${l}\n`),
    }),
  );
}

function formatTabs(tabs: TabListing[]): string {
  return tabs
    .map(
      (t) =>
        `${t.index}: ${stripControls(t.label)} (${t.agent}) ${t.status}  ${stripControls(t.cwd)}${t.conversation ? `  conversation ${t.conversation}` : ''}${t.active ? '  (active)' : ''}`,
    )
    .join('\n');
}

/** tmux's `ls` says whether a session is attached; every client of a server shows its tabs. */
function attachedLine(tabs: TabListing[]): string {
  const clients = tabs[0]?.clients ?? 0;
  const n = (k: number, one: string) => `${k} ${one}${k === 1 ? '' : 's'}`;
  return `${n(tabs.length, 'tab')}, ${clients ? `${n(clients, 'client')} attached` : 'detached'}`;
}

export function registerServerCommands(y: Argv, io: Io, setExit: (code: number) => void): Argv {
  return y
    .command(
      'server',
      false, // started by baton itself; not something to type
      (c) => c.option('L', serverNameOption),
      (a) => serve(io, a.L),
    )
    .command(
      'attach',
      "attach to the running server's tabs (C-b d detaches again)",
      (c) =>
        c
          .option('L', serverNameOption)
          .option('t', { alias: 'target', type: 'string', describe: 'the tab to show first (its number or title)' })
          .option('r', { alias: 'read-only', type: 'boolean', default: false, describe: 'watch only: keys and the terminal size are not sent' })
          .options(hostOptions),
      (a) => attachClient(io, a, setExit),
    )
    .command(
      'ls',
      "the server's tabs: agent, status, directory",
      (c) => c.option('L', serverNameOption).option('json', { type: 'boolean', default: false }).options(hostOptions),
      async (a) => {
        const remote = remoteOf(a, io.env);
        const r = await ask(io, { kind: 'ls' }, a.L, remote);
        const tabs = (r.tabs as TabListing[] | undefined) ?? [];
        if (a.json) io.out(JSON.stringify({ server: a.L, ...(remote ? { host: remote.host } : {}), pid: r.pid, tabs }) + '\n');
        else {
          const server = `server ${a.L}${remote ? ` on ${remote.host}` : ''} (pid ${r.pid})`;
          io.out(tabs.length ? `${server}: ${attachedLine(tabs)}\n${formatTabs(tabs)}\n` : `${server} has no tabs\n`);
        }
      },
    )
    .command(
      'kill-server',
      'end the server and every tab in it',
      (c) =>
        c
          .option('L', serverNameOption)
          .option('force', { alias: 'f', type: 'boolean', default: false, describe: 'even when agents are working' })
          .options(hostOptions),
      async (a) => {
        const remote = remoteOf(a, io.env);
        const r = await ask(io, { kind: 'ls' }, a.L, remote);
        const working = ((r.tabs as TabListing[] | undefined) ?? []).filter((t) => t.status === 'working' || t.status === 'approval');
        if (working.length && !a.force) {
          throw refused(
            `agents are at work in ${working.map((t) => `${t.index}:${stripControls(t.label)}`).join(', ')}; ending the server would stop them`,
            `wait for them, or \`baton kill-server${remote ? ` --host ${remote.host}` : ''} --force\``,
          );
        }
        await ask(io, { kind: 'kill-server' }, a.L, remote);
        io.err(`baton: server ${a.L}${remote ? ` on ${remote.host}` : ''} (pid ${r.pid}) is ending\n`);
      },
    )
    .command(
      'proxy',
      false, // run on the host by `baton attach --host`, through ssh; it speaks frames, not to people
      (c) => c.option('L', serverNameOption).option('start', { type: 'boolean', default: false, describe: 'start the server when none runs' }),
      async (a) => {
        if (process.stdout.isTTY) {
          throw badInput(
            "baton proxy speaks baton's wire protocol on stdin and stdout, not to a terminal",
            'it is what `baton attach --host THIS-HOST` runs here through ssh; to use baton here, run `baton`',
          );
        }
        setExit(await proxy({ name: a.L, env: io.env, start: a.start, pluginDirs: pluginDirs(), cwd: io.cwd, input: process.stdin, output: process.stdout }));
      },
    );
}
