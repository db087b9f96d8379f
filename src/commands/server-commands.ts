// The server's commands, as tmux has them: `baton server` (runs one in the foreground; the
// first `baton` starts it this way, detached), `baton attach [-t TAB] [-r]`, `baton ls`,
// `baton kill-server`; `-L NAME` picks a server other than `default` for all of them and
// for `baton [open]`. The work is in src/server (the server) and src/client (the client).

import { attach } from '../client/attach.js';
import { connect } from '../client/connect.js';
import { userAuthor } from '../conversation/user.js';
import { refused } from '../errors.js';
import type { TabListing } from '../server/tab-list.js';
import { decodeJson, FRAME, type Frame } from '../server/protocol.js';
import { DEFAULT_SERVER, socketPlace } from '../server/socket-place.js';
import { stripControls } from '../transcript/sanitize.js';
import { pluginDirs } from './agent-catalog.js';
import type { Io } from './io.js';
import type { Argv } from './yargs.js';

/** `-L NAME`, on every command that talks to a server. */
export const serverNameOption = { alias: 'L', type: 'string', default: DEFAULT_SERVER, describe: 'the server to use (several may run, each with its own tabs)' } as const;

async function ask(io: Io, request: { kind: 'ls' } | { kind: 'kill-server' }, name: string): Promise<Record<string, unknown> & { pid: number }> {
  const user = userAuthor(io.env);
  const conn = await connect({ name, env: io.env, start: false, hello: { user: { name: user.name, device: user.device }, request, cols: 80, rows: 24 } });
  const reply = await new Promise<Frame>((resolve, reject) => {
    conn.onFrame((f) => resolve(f));
    conn.socket.once('close', () => reject(refused('the baton server closed the connection without an answer')));
  });
  conn.socket.destroy();
  return { ...(reply.type === FRAME.reply ? decodeJson<Record<string, unknown>>(reply) : {}), pid: conn.welcome.pid };
}

function formatTabs(tabs: TabListing[]): string {
  return tabs
    .map((t) => `${t.index}: ${stripControls(t.label)} (${t.agent}) ${t.status}  ${stripControls(t.cwd)}${t.conversation ? `  conversation ${t.conversation}` : ''}${t.active ? '  (active)' : ''}`)
    .join('\n');
}

export function registerServerCommands(y: Argv, io: Io, setExit: (code: number) => void): Argv {
  return y
    .command(
      'server',
      false, // started by baton itself; not something to type
      (c) => c.option('L', serverNameOption),
      async (a) => {
        const place = socketPlace(io.env, a.L);
        // Loaded here: the server hosts the TUI, which the client commands never need.
        const { BatonServer } = await import('../server/server.js');
        const server = new BatonServer({ place, name: a.L, env: io.env, pluginDirs: pluginDirs(), log: (l) => io.err(`${new Date().toISOString()} ${l}\n`) });
        if (!(await server.start())) {
          io.err(`baton: a server named ${a.L} already runs (${place.path})\n`);
          return;
        }
        // Detached from any terminal: a hangup is not ours; SIGTERM ends it like kill-server.
        process.on('SIGHUP', () => undefined);
        process.on('SIGTERM', () => void server.end('SIGTERM'));
        process.on('SIGINT', () => void server.end('SIGINT'));
        await server.done;
      },
    )
    .command(
      'attach',
      'attach to the running server\'s tabs (C-b d detaches again)',
      (c) =>
        c
          .option('L', serverNameOption)
          .option('t', { alias: 'target', type: 'string', describe: 'the tab to show first (its number or title)' })
          .option('r', { alias: 'read-only', type: 'boolean', default: false, describe: 'watch only: keys and the terminal size are not sent' }),
      async (a) => {
        setExit(await attach({ name: a.L, env: io.env, cwd: io.cwd, start: false, readOnly: a.r, ...(a.t !== undefined ? { tab: a.t } : {}), say: (l) => io.err(`${l}\n`) }));
      },
    )
    .command(
      'ls',
      'the server\'s tabs: agent, status, directory',
      (c) => c.option('L', serverNameOption).option('json', { type: 'boolean', default: false }),
      async (a) => {
        const r = await ask(io, { kind: 'ls' }, a.L);
        const tabs = (r.tabs as TabListing[] | undefined) ?? [];
        if (a.json) io.out(JSON.stringify({ server: a.L, pid: r.pid, tabs }) + '\n');
        else io.out(tabs.length ? `${formatTabs(tabs)}\n` : `server ${a.L} (pid ${r.pid}) has no tabs\n`);
      },
    )
    .command(
      'kill-server',
      'end the server and every tab in it',
      (c) => c.option('L', serverNameOption).option('force', { alias: 'f', type: 'boolean', default: false, describe: 'even when agents are working' }),
      async (a) => {
        const r = await ask(io, { kind: 'ls' }, a.L);
        const working = ((r.tabs as TabListing[] | undefined) ?? []).filter((t) => t.status === 'working' || t.status === 'approval');
        if (working.length && !a.force) {
          throw refused(
            `agents are at work in ${working.map((t) => `${t.index}:${stripControls(t.label)}`).join(', ')}; ending the server would stop them`,
            'wait for them, or `baton kill-server --force`',
          );
        }
        await ask(io, { kind: 'kill-server' }, a.L);
        io.err(`baton: server ${a.L} (pid ${r.pid}) is ending\n`);
      },
    );
}
