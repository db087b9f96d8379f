// baton's side of one ACP connection (the "client" in ACP terms), over an agent's stdio:
// initialize, sessions (new, load, resume, fork), prompt, cancel, and the requests an agent makes of its client —
// permission, file system, terminals. The SDK itself enters through acp-sdk.ts. It decides nothing about
// policy (the harness does) and never spawns the agent itself.

import { Readable, Writable } from 'node:stream';
import {
  client,
  ndJsonStream,
  PROTOCOL_VERSION,
  type ClientConnection,
  type ForkSessionResponse,
  type InitializeResponse,
  type LoadSessionResponse,
  type NewSessionResponse,
  type PromptResponse,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
  type ResumeSessionResponse,
  type SessionUpdate,
} from './acp-sdk.js';
import { RequestError } from './acp-sdk.js';
import { readTextFile, writeTextFile } from './acp-fs.js';
import { TerminalPool } from './acp-terminals.js';

export { RequestError } from './acp-sdk.js';
export type {
  AuthMethod,
  InitializeResponse,
  PromptResponse,
  RequestPermissionRequest,
  RequestPermissionResponse,
  SessionModeState,
  SessionUpdate,
  ToolCallContent,
} from './acp-sdk.js';

export interface AcpClientOptions {
  /** Directory relative terminal cwds resolve against. */
  cwd: string;
  /** Environment client terminals start with. */
  env: NodeJS.ProcessEnv;
  /** Offer fs/read_text_file and fs/write_text_file. */
  fs: boolean;
  /** Offer terminal/*. */
  terminal: boolean;
  /** Files outside this directory are refused to fs/* (none: any absolute path). */
  fsRoot?: string;
  /** Asked before every fs/write_text_file: a reason refuses the write (plan mode), undefined lets it go. */
  refuseWrite?(path: string): string | undefined;
  onUpdate(sessionId: string, update: SessionUpdate): void;
  onPermission(request: RequestPermissionRequest): RequestPermissionResponse | Promise<RequestPermissionResponse>;
}

export class AcpClient {
  readonly terminals: TerminalPool;
  private readonly conn: ClientConnection;
  private readonly opts: AcpClientOptions;

  /** `agentOut` is the agent's stdout, `agentIn` its stdin. */
  constructor(agentOut: Readable, agentIn: Writable, opts: AcpClientOptions) {
    this.opts = opts;
    this.terminals = new TerminalPool({ cwd: opts.cwd, env: opts.env });
    // An agent that dies leaves a broken pipe; the exit is reported elsewhere.
    agentIn.on('error', () => {});
    agentOut.on('error', () => {});
    const stream = ndJsonStream(Writable.toWeb(agentIn) as WritableStream<Uint8Array>, Readable.toWeb(agentOut) as unknown as ReadableStream<Uint8Array>);
    const app = client({ name: 'baton' })
      .onNotification('session/update', ({ params }) => opts.onUpdate(params.sessionId, params.update))
      .onRequest('session/request_permission', ({ params }) => opts.onPermission(params));
    if (opts.fs) {
      app
        .onRequest('fs/read_text_file', async ({ params }) => ({ content: await readTextFile(params.path, params.line, params.limit, opts.fsRoot) }))
        .onRequest('fs/write_text_file', async ({ params }) => {
          const refused = opts.refuseWrite?.(params.path);
          if (refused) throw RequestError.invalidRequest({ path: params.path }, refused);
          await writeTextFile(params.path, params.content, opts.fsRoot);
          return {};
        });
    }
    if (opts.terminal) {
      const t = this.terminals;
      app
        .onRequest('terminal/create', async ({ params }) => ({ terminalId: await t.create(params) }))
        .onRequest('terminal/output', ({ params }) => t.output(params.terminalId))
        .onRequest('terminal/wait_for_exit', ({ params }) => t.waitForExit(params.terminalId))
        .onRequest('terminal/kill', async ({ params }) => {
          await t.kill(params.terminalId);
          return {};
        })
        .onRequest('terminal/release', async ({ params }) => {
          await t.release(params.terminalId);
          return {};
        });
    }
    this.conn = app.connect(stream);
  }

  /** Resolves when the connection closes (the agent ended its stdout, or `close()`). */
  get closed(): Promise<void> {
    return this.conn.closed;
  }

  initialize(clientVersion: string): Promise<InitializeResponse> {
    return this.conn.agent.request('initialize', {
      protocolVersion: PROTOCOL_VERSION,
      clientCapabilities: {
        fs: { readTextFile: this.opts.fs, writeTextFile: this.opts.fs },
        terminal: this.opts.terminal,
      },
      clientInfo: { name: 'baton', version: clientVersion },
    });
  }

  async authenticate(methodId: string): Promise<void> {
    await this.conn.agent.request('authenticate', { methodId });
  }

  newSession(cwd: string): Promise<NewSessionResponse> {
    return this.conn.agent.request('session/new', { cwd, mcpServers: [] });
  }

  async loadSession(sessionId: string, cwd: string): Promise<LoadSessionResponse> {
    return (await this.conn.agent.request('session/load', { sessionId, cwd, mcpServers: [] })) ?? {};
  }

  resumeSession(sessionId: string, cwd: string): Promise<ResumeSessionResponse> {
    return this.conn.agent.request('session/resume', { sessionId, cwd, mcpServers: [] });
  }

  /** A new session holding a copy of `sessionId`'s history (only when the agent advertises sessionCapabilities.fork). */
  forkSession(sessionId: string, cwd: string): Promise<ForkSessionResponse> {
    return this.conn.agent.request('session/fork', { sessionId, cwd, mcpServers: [] });
  }

  async setMode(sessionId: string, modeId: string): Promise<void> {
    await this.conn.agent.request('session/set_mode', { sessionId, modeId });
  }

  /** session/set_config_option with a select value (the model option); the agent answers with its options as they now are. */
  async setConfigOption(sessionId: string, configId: string, value: string): Promise<unknown> {
    return this.conn.agent.request('session/set_config_option', { sessionId, configId, value });
  }

  /** session/set_model: unstable in ACP and not in the SDK's method list, so sent by name (Gemini CLI, claude-code-acp answer it). */
  async setModel(sessionId: string, modelId: string): Promise<void> {
    await this.conn.agent.request<unknown, { sessionId: string; modelId: string }>('session/set_model', { sessionId, modelId });
  }

  prompt(sessionId: string, text: string): Promise<PromptResponse> {
    return this.conn.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text }] });
  }

  cancel(sessionId: string): Promise<void> {
    return this.conn.agent.notify('session/cancel', { sessionId });
  }

  /** Close the connection and end every client terminal. */
  async close(): Promise<void> {
    this.conn.close();
    await this.terminals.dispose();
  }
}
