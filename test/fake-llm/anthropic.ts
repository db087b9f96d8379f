// Anthropic Messages (/v1/messages, also with ?beta=true), as claude and claude-code-acp
// speak it: system + content blocks (text, tool_use, tool_result), tools with
// input_schema, JSON or SSE (message_start, content_block_*, message_delta, message_stop),
// and /v1/messages/count_tokens. Tool results arrive inside user messages, so a user
// message counts as user text only for its non-context text blocks.
// It must never reject a request for a model name or a beta header it does not know.
import type { ServerResponse } from 'node:http';
import { asArray, asObject, emptyConversation, pushUserText, textOf, type Conversation } from './conversation.js';
import { decide, type Decision, type Served } from './script.js';
import { chunks, fakeId, sendEvent, sendJson, startSse, tokens } from './sse.js';

export function parseAnthropic(body: Record<string, unknown>): Conversation {
  const conv = emptyConversation();
  conv.system = textOf(body.system);
  for (const raw of asArray(body.messages)) {
    const m = asObject(raw);
    const blocks = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : asArray(m.content);
    const texts: string[] = [];
    for (const b of blocks.map(asObject)) {
      if (b.type === 'text' && typeof b.text === 'string') texts.push(b.text);
      else if (b.type === 'tool_use') conv.items.push({ kind: 'tool_call', name: String(b.name ?? '') });
      else if (b.type === 'tool_result') conv.items.push({ kind: 'tool_result', output: textOf(b.content) });
    }
    if (m.role === 'user') pushUserText(conv, texts.join('\n'));
    else if (texts.length) conv.items.push({ kind: 'assistant_text', text: texts.join('\n') });
  }
  for (const raw of asArray(body.tools)) {
    const t = asObject(raw);
    if (typeof t.name === 'string') conv.tools.push({ name: t.name, parameters: t.input_schema });
  }
  const format = asObject(body.output_format ?? asObject(body.output_config).format);
  if (format.type === 'json_schema') conv.schema = format.schema ?? {};
  return conv;
}

export function serveCountTokens(body: Record<string, unknown>): Served {
  const input_tokens = tokens(JSON.stringify([body.system ?? '', body.messages ?? [], body.tools ?? []]));
  return { model: String(body.model ?? ''), stream: false, send: (res) => sendJson(res, 200, { input_tokens }) };
}

export function serveAnthropic(body: Record<string, unknown>): Served {
  const model = String(body.model ?? 'fake-model');
  const decision = decide(parseAnthropic(body));
  const stream = body.stream === true;
  const id = fakeId('msg_');
  const block = contentBlock(decision);
  const inTok = tokens(JSON.stringify(body.messages ?? ''));
  const outTok = tokens(decision.kind === 'tool' ? JSON.stringify(decision.args) : decision.text);
  const stop_reason = decision.kind === 'tool' ? 'tool_use' : 'end_turn';
  const usage = { input_tokens: inTok, output_tokens: outTok, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  const send = (res: ServerResponse) => {
    if (!stream) {
      sendJson(res, 200, {
        id,
        type: 'message',
        role: 'assistant',
        model,
        content: [block],
        stop_reason,
        stop_sequence: null,
        usage,
      });
      return;
    }
    startSse(res);
    const ev = (type: string, data: Record<string, unknown>) => sendEvent(res, { type, ...data }, type);
    ev('message_start', {
      message: {
        id,
        type: 'message',
        role: 'assistant',
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { ...usage, output_tokens: 1 },
      },
    });
    if (decision.kind === 'tool') {
      ev('content_block_start', { index: 0, content_block: { ...block, input: {} } });
      ev('ping', {});
      for (const partial_json of chunks(JSON.stringify(decision.args))) {
        ev('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json } });
      }
    } else {
      ev('content_block_start', { index: 0, content_block: { type: 'text', text: '' } });
      ev('ping', {});
      for (const text of chunks(decision.text)) ev('content_block_delta', { index: 0, delta: { type: 'text_delta', text } });
    }
    ev('content_block_stop', { index: 0 });
    ev('message_delta', { delta: { stop_reason, stop_sequence: null }, usage: { output_tokens: outTok } });
    ev('message_stop', {});
    res.end();
  };
  return { model, stream, decision, send };
}

function contentBlock(d: Decision): Record<string, unknown> {
  if (d.kind === 'tool') return { type: 'tool_use', id: fakeId('toolu_'), name: d.name, input: d.args };
  return { type: 'text', text: d.text };
}
