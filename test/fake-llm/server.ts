// baton's fake LLM for tests: one node:http server on 127.0.0.1 that answers the four
// model APIs the agent CLIs speak (OpenAI Chat Completions, OpenAI Responses, Anthropic
// Messages, Gemini), with the replies script.ts decides, and logs every request, in
// memory and as JSONL, so a test (in this process or another) can check what context
// reached the model. Start it with startFakeLlm(); close() ends it and every connection.
// It must never listen beyond loopback, nor call out anywhere: it only answers.
import { appendFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as zlib from 'node:zlib';
import { serveAnthropic, serveCountTokens } from './anthropic.js';
import type { ApiName } from './conversation.js';
import { GEMINI_MODELS, geminiModel, serveGemini } from './gemini.js';
import { serveChat } from './openai-chat.js';
import { serveResponses } from './openai-responses.js';
import { faultOf, type Decision, type Fault, type Served } from './script.js';
import { sendJson } from './sse.js';

export type { ApiName } from './conversation.js';

export type RequestKind = 'generate' | 'count_tokens' | 'models' | 'probe' | 'embed' | 'unknown';

export interface LoggedRequest {
  seq: number;
  at: string;
  api: ApiName | 'other';
  kind: RequestKind;
  method: string;
  /** Path with the query string, as the client sent it. */
  path: string;
  model: string;
  stream: boolean;
  /** The parsed JSON body (or the raw text when it is not JSON; null when empty). */
  body: unknown;
  /** What the fake answered: text, structured JSON, or a tool call. */
  reply?: Decision;
  /** Set when a [[FAKE_HANG]] / [[FAKE_HOLD: NAME]] / [[FAKE_ERROR: status]] marker made it hang, wait or fail instead. */
  fault?: Fault;
}

export interface FakeLlm {
  port: number;
  /** http://127.0.0.1:PORT (no trailing slash, no /v1). */
  url: string;
  logFile?: string;
  requests(): LoggedRequest[];
  requestsFor(api: ApiName): LoggedRequest[];
  /** Model requests (kind "generate") whose body contains text anywhere. */
  requestsContaining(text: string): LoggedRequest[];
  /** Polls the log until a request matches, or rejects after timeoutMs naming what it waited for. */
  waitForRequest(match: (r: LoggedRequest) => boolean, timeoutMs?: number, what?: string): Promise<LoggedRequest>;
  /** Answers the requests held by [[FAKE_HOLD: name]], and from now on answers such requests at once. */
  release(name: string): void;
  close(): Promise<void>;
}

export interface FakeLlmOptions {
  /** JSONL file that gets one LoggedRequest per line (created 0600, truncated). */
  logFile?: string;
  /** 0 (default) picks a free port. */
  port?: number;
}

interface Routed {
  api: ApiName | 'other';
  kind: RequestKind;
  served?: Served;
  status?: number;
}

export async function startFakeLlm(opts: FakeLlmOptions = {}): Promise<FakeLlm> {
  const log: LoggedRequest[] = [];
  /** Replies held by [[FAKE_HOLD: NAME]], by name; and the names released. */
  const held = new Map<string, (() => void)[]>();
  const released = new Set<string>();
  if (opts.logFile) writeFileSync(opts.logFile, '', { mode: 0o600 });

  const record = (entry: LoggedRequest) => {
    log.push(entry);
    if (opts.logFile) appendFileSync(opts.logFile, `${JSON.stringify(entry)}\n`, { mode: 0o600 });
  };

  const server = createServer((req, res) => {
    readBody(req)
      .then((raw) => {
        const url = new URL(req.url ?? '/', 'http://127.0.0.1');
        const body = parseBody(raw);
        const routed = route(req.method ?? 'GET', url, body);
        const served = routed.served;
        const fault = faultOf(served?.decision);
        record({
          seq: log.length + 1,
          at: new Date().toISOString(),
          api: routed.api,
          kind: routed.kind,
          method: req.method ?? 'GET',
          path: req.url ?? '/',
          model: served?.model ?? '',
          stream: served?.stream ?? false,
          body,
          ...(served?.decision ? { reply: served.decision } : {}),
          ...(fault ? { fault } : {}),
        });
        // A hanging request is simply never answered; close() ends its connection.
        if (fault?.kind === 'hang') return;
        if (fault?.kind === 'hold' && served && !released.has(fault.name)) {
          held.set(fault.name, [...(held.get(fault.name) ?? []), () => served.send(res)]);
          return;
        }
        if (fault?.kind === 'error') {
          sendJson(res, fault.status, { error: { message: `fake LLM: scripted error ${fault.status}`, type: 'fake_error', code: fault.status } });
        } else if (served) served.send(res);
        else sendJson(res, routed.status ?? 404, { error: { message: `fake LLM: no route for ${req.method} ${url.pathname}` } });
      })
      .catch((err: unknown) => {
        if (!res.headersSent) sendJson(res, 500, { error: { message: `fake LLM: ${String(err)}` } });
        else res.destroy();
      });
  });
  server.keepAliveTimeout = 1000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;

  return {
    port,
    url: `http://127.0.0.1:${port}`,
    ...(opts.logFile ? { logFile: opts.logFile } : {}),
    requests: () => [...log],
    requestsFor: (api) => log.filter((r) => r.api === api),
    requestsContaining: (text) => log.filter((r) => r.kind === 'generate' && bodyContains(r, text)),
    waitForRequest: async (match, timeoutMs = 30_000, what = 'a matching request') => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const hit = log.find(match);
        if (hit) return hit;
        if (Date.now() > deadline) {
          const seen = log.map((r) => `${r.seq} ${r.api} ${r.kind} ${r.path}`).join('; ') || 'none';
          throw new Error(`fake LLM: timed out after ${timeoutMs} ms waiting for ${what}; requests seen: ${seen}`);
        }
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    release: (name) => {
      released.add(name);
      const waiting = held.get(name) ?? [];
      held.delete(name);
      for (const send of waiting) send();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function route(method: string, url: URL, body: unknown): Routed {
  const path = url.pathname.replace(/\/+$/, '') || '/';
  const obj = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  // claude's connectivity check.
  if (path === '/' && (method === 'HEAD' || method === 'GET')) {
    return { api: 'other', kind: 'probe', served: { model: '', stream: false, send: (res) => sendJson(res, 200, {}) } };
  }
  if (method === 'POST') {
    if (path.endsWith('/chat/completions')) return { api: 'openai-chat', kind: 'generate', served: serveChat(obj) };
    if (path.endsWith('/responses')) return { api: 'openai-responses', kind: 'generate', served: serveResponses(obj) };
    if (path.endsWith('/messages/count_tokens')) return { api: 'anthropic', kind: 'count_tokens', served: serveCountTokens(obj) };
    if (path.endsWith('/messages')) return { api: 'anthropic', kind: 'generate', served: serveAnthropic(obj) };
    const g = /\/models\/([^/:]+):([A-Za-z]+)$/.exec(path);
    if (g) {
      const served = serveGemini(decodeURIComponent(g[1]!), g[2]!, url.searchParams.get('alt') === 'sse', obj);
      const kind: RequestKind = g[2] === 'countTokens' ? 'count_tokens' : /embed/i.test(g[2]!) ? 'embed' : 'generate';
      return served ? { api: 'gemini', kind, served } : { api: 'gemini', kind: 'unknown' };
    }
    if (path.endsWith('/embeddings')) {
      const reply = { object: 'list', data: [{ object: 'embedding', index: 0, embedding: new Array(8).fill(0) }], model: 'fake-model' };
      return { api: 'openai-chat', kind: 'embed', served: { model: 'fake-model', stream: false, send: (res) => sendJson(res, 200, reply) } };
    }
  }
  if (method === 'GET') {
    const one = /\/models\/([^/]+)$/.exec(path);
    const gemini = path.includes('/v1beta') || url.searchParams.has('key');
    if (path.endsWith('/models')) {
      const reply = gemini ? { models: GEMINI_MODELS.map(geminiModel) } : modelList();
      return { api: gemini ? 'gemini' : 'other', kind: 'models', served: { model: '', stream: false, send: (res) => sendJson(res, 200, reply) } };
    }
    if (one) {
      const id = decodeURIComponent(one[1]!);
      const reply = gemini ? geminiModel(id) : modelEntry(id);
      return { api: gemini ? 'gemini' : 'other', kind: 'models', served: { model: id, stream: false, send: (res) => sendJson(res, 200, reply) } };
    }
  }
  return { api: 'other', kind: 'unknown' };
}

const OPENAI_MODELS = ['fake-model', 'claude-opus-4-8', 'claude-sonnet-4-5-20250929', 'claude-haiku-4-5', 'gpt-5'];

function modelEntry(id: string): Record<string, unknown> {
  // One shape that satisfies both the OpenAI and the Anthropic model-list readers.
  return { id, object: 'model', type: 'model', display_name: id, created: 0, created_at: '1970-01-01T00:00:00Z', owned_by: 'fake' };
}

function modelList(): Record<string, unknown> {
  const data = OPENAI_MODELS.map(modelEntry);
  return { object: 'list', data, has_more: false, first_id: data[0]!.id, last_id: data[data.length - 1]!.id };
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const c of req) parts.push(c as Buffer);
  const raw = Buffer.concat(parts);
  const enc = String(req.headers['content-encoding'] ?? '').toLowerCase();
  if (!raw.length || !enc || enc === 'identity') return raw;
  if (enc === 'gzip') return zlib.gunzipSync(raw);
  if (enc === 'deflate') return zlib.inflateSync(raw);
  if (enc === 'br') return zlib.brotliDecompressSync(raw);
  // zstd (codex may compress) is only in newer Node zlib builds.
  const z = (zlib as unknown as { zstdDecompressSync?: (b: Buffer) => Buffer }).zstdDecompressSync;
  if (enc === 'zstd' && z) return z(raw);
  throw new Error(`unsupported content-encoding ${enc}`);
}

function parseBody(raw: Buffer): unknown {
  if (!raw.length) return null;
  const text = raw.toString('utf8');
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** For tests: did any logged request carry this text anywhere in its body? */
export function bodyContains(r: LoggedRequest, text: string): boolean {
  return JSON.stringify(r.body ?? '').includes(JSON.stringify(text).slice(1, -1));
}
