// OpenAI Chat Completions (/v1/chat/completions), as qwen and opencode's
// @ai-sdk/openai-compatible provider speak it: JSON or SSE chunks ending in [DONE],
// tool calls as `tool_calls` with JSON-string arguments, usage when asked.
// It must never assume a field the client may omit: every read tolerates absence.
import type { ServerResponse } from 'node:http';
import { asArray, asObject, emptyConversation, pushUserText, textOf, type Conversation } from './conversation.js';
import { decide, type Decision, type Served } from './script.js';
import { chunks, fakeId, sendEvent, sendJson, startSse, tokens } from './sse.js';

export function parseChat(body: Record<string, unknown>): Conversation {
  const conv = emptyConversation();
  for (const raw of asArray(body.messages)) {
    const m = asObject(raw);
    const role = m.role;
    if (role === 'system' || role === 'developer') conv.system += `${textOf(m.content)}\n`;
    else if (role === 'user') pushUserText(conv, textOf(m.content));
    else if (role === 'assistant') {
      const text = textOf(m.content);
      if (text) conv.items.push({ kind: 'assistant_text', text });
      for (const tc of asArray(m.tool_calls)) {
        conv.items.push({ kind: 'tool_call', name: String(asObject(asObject(tc).function).name ?? '') });
      }
    } else if (role === 'tool' || role === 'function') {
      conv.items.push({ kind: 'tool_result', output: textOf(m.content) });
    }
  }
  for (const raw of asArray(body.tools)) {
    const fn = asObject(asObject(raw).function);
    if (typeof fn.name === 'string') conv.tools.push({ name: fn.name, parameters: fn.parameters });
  }
  const rf = asObject(body.response_format);
  if (rf.type === 'json_schema') conv.schema = asObject(rf.json_schema).schema ?? {};
  else if (rf.type === 'json_object') conv.jsonMode = true;
  return conv;
}

export function serveChat(body: Record<string, unknown>): Served {
  const model = String(body.model ?? 'fake-model');
  const conv = parseChat(body);
  const decision = decide(conv);
  const stream = body.stream === true;
  const id = fakeId('chatcmpl-');
  const created = Math.floor(Date.now() / 1000);
  const promptTokens = tokens(JSON.stringify(body.messages ?? ''));
  const outText = decision.kind === 'tool' ? JSON.stringify(decision.args) : decision.text;
  const usage = {
    prompt_tokens: promptTokens,
    completion_tokens: tokens(outText),
    total_tokens: promptTokens + tokens(outText),
  };
  const finish = decision.kind === 'tool' ? 'tool_calls' : 'stop';
  const send = (res: ServerResponse) => {
    if (!stream) {
      sendJson(res, 200, {
        id,
        object: 'chat.completion',
        created,
        model,
        choices: [{ index: 0, message: message(decision), finish_reason: finish, logprobs: null }],
        usage,
      });
      return;
    }
    startSse(res);
    const base = { id, object: 'chat.completion.chunk', created, model };
    const chunk = (delta: unknown, finish_reason: string | null = null) =>
      sendEvent(res, { ...base, choices: [{ index: 0, delta, finish_reason, logprobs: null }] });
    chunk({ role: 'assistant', content: '' });
    if (decision.kind === 'tool') {
      const callId = fakeId('call_');
      const args = JSON.stringify(decision.args);
      chunk({ tool_calls: [{ index: 0, id: callId, type: 'function', function: { name: decision.name, arguments: '' } }] });
      for (const part of chunks(args)) chunk({ tool_calls: [{ index: 0, function: { arguments: part } }] });
    } else {
      for (const part of chunks(decision.text)) chunk({ content: part });
    }
    chunk({}, finish);
    if (asObject(body.stream_options).include_usage) sendEvent(res, { ...base, choices: [], usage });
    sendEvent(res, '[DONE]');
    res.end();
  };
  return { model, stream, decision, send };
}

function message(d: Decision): Record<string, unknown> {
  if (d.kind !== 'tool') return { role: 'assistant', content: d.text };
  return {
    role: 'assistant',
    content: null,
    tool_calls: [{ id: fakeId('call_'), type: 'function', function: { name: d.name, arguments: JSON.stringify(d.args) } }],
  };
}
