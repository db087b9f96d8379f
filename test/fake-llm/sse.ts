// Server-sent events as the model APIs use them: `event: NAME` (OpenAI Responses and
// Anthropic name their events; Chat Completions and Gemini send bare `data:` lines).
// It must never buffer a whole stream: each event is written as it is produced, the
// way a real model streams, so clients exercise their incremental parsers.
import type { ServerResponse } from 'node:http';

export function startSse(res: ServerResponse): void {
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
}

export function sendEvent(res: ServerResponse, data: unknown, event?: string): void {
  const payload = typeof data === 'string' ? data : JSON.stringify(data);
  res.write(`${event ? `event: ${event}\n` : ''}data: ${payload}\n\n`);
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** Splits text into a few deltas so clients must join them. */
export function chunks(text: string, size = 24): string[] {
  if (!text) return [''];
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

let counter = 0;
export function fakeId(prefix: string): string {
  counter += 1;
  return `${prefix}${Date.now().toString(36)}${counter.toString(36).padStart(4, '0')}`;
}

/** A rough token count, so usage fields hold plausible numbers. */
export function tokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}
