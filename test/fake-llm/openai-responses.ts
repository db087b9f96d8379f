// OpenAI Responses (/v1/responses), as codex speaks it: `input` items (messages,
// function_call, function_call_output, ...), function tools, and an SSE stream of
// response.created, output_item.added, output_text.delta / function_call_arguments.delta,
// output_item.done, response.completed. Codex always streams; JSON is served too.
// It must never keep state between requests: the client resends the whole input.
import type { ServerResponse } from 'node:http';
import { asArray, asObject, emptyConversation, pushUserText, textOf, type Conversation } from './conversation.js';
import { decide, type Decision, type Served } from './script.js';
import { chunks, fakeId, sendEvent, sendJson, startSse, tokens } from './sse.js';

export function parseResponses(body: Record<string, unknown>): Conversation {
  const conv = emptyConversation();
  if (typeof body.instructions === 'string') conv.system += `${body.instructions}\n`;
  const input = typeof body.input === 'string' ? [{ role: 'user', content: body.input }] : asArray(body.input);
  for (const raw of input) {
    const it = asObject(raw);
    const type = it.type ?? 'message';
    if (type === 'message') {
      const text = textOf(it.content);
      if (it.role === 'user') pushUserText(conv, text);
      else if (it.role === 'assistant') {
        if (text) conv.items.push({ kind: 'assistant_text', text });
      } else conv.system += `${text}\n`;
    } else if (type === 'function_call' || type === 'custom_tool_call' || type === 'local_shell_call') {
      conv.items.push({ kind: 'tool_call', name: String(it.name ?? type) });
    } else if (type === 'function_call_output' || type === 'custom_tool_call_output' || type === 'local_shell_call_output') {
      conv.items.push({ kind: 'tool_result', output: textOf(it.output) });
    }
  }
  for (const raw of asArray(body.tools)) {
    const t = asObject(raw);
    if (t.type === 'function' && typeof t.name === 'string') conv.tools.push({ name: t.name, parameters: t.parameters });
  }
  const format = asObject(asObject(body.text).format);
  if (format.type === 'json_schema') conv.schema = format.schema ?? {};
  else if (format.type === 'json_object') conv.jsonMode = true;
  return conv;
}

export function serveResponses(body: Record<string, unknown>): Served {
  const model = String(body.model ?? 'fake-model');
  const decision = decide(parseResponses(body));
  const stream = body.stream === true;
  const id = fakeId('resp_');
  const created_at = Math.floor(Date.now() / 1000);
  const item = outputItem(decision);
  const inTok = tokens(JSON.stringify(body.input ?? ''));
  const outTok = tokens(decision.kind === 'tool' ? JSON.stringify(decision.args) : decision.text);
  const usage = {
    input_tokens: inTok,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: outTok,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: inTok + outTok,
  };
  const response = (status: string, output: unknown[], withUsage: boolean) => ({
    id,
    object: 'response',
    created_at,
    status,
    model,
    output,
    parallel_tool_calls: false,
    tool_choice: body.tool_choice ?? 'auto',
    tools: body.tools ?? [],
    usage: withUsage ? usage : null,
    error: null,
    incomplete_details: null,
  });
  const send = (res: ServerResponse) => {
    if (!stream) {
      sendJson(res, 200, response('completed', [item], true));
      return;
    }
    startSse(res);
    let seq = 0;
    const ev = (type: string, data: Record<string, unknown>) => sendEvent(res, { type, sequence_number: seq++, ...data }, type);
    ev('response.created', { response: response('in_progress', [], false) });
    ev('response.in_progress', { response: response('in_progress', [], false) });
    if (decision.kind === 'tool') {
      const args = String(item.arguments);
      ev('response.output_item.added', { output_index: 0, item: { ...item, arguments: '', status: 'in_progress' } });
      for (const delta of chunks(args)) {
        ev('response.function_call_arguments.delta', { item_id: item.id, output_index: 0, delta });
      }
      ev('response.function_call_arguments.done', { item_id: item.id, output_index: 0, arguments: args });
    } else {
      const text = decision.text;
      const part = { type: 'output_text', text: '', annotations: [] };
      ev('response.output_item.added', { output_index: 0, item: { ...item, status: 'in_progress', content: [] } });
      ev('response.content_part.added', { item_id: item.id, output_index: 0, content_index: 0, part });
      for (const delta of chunks(text)) {
        ev('response.output_text.delta', { item_id: item.id, output_index: 0, content_index: 0, delta, logprobs: [] });
      }
      ev('response.output_text.done', { item_id: item.id, output_index: 0, content_index: 0, text, logprobs: [] });
      ev('response.content_part.done', { item_id: item.id, output_index: 0, content_index: 0, part: { ...part, text } });
    }
    ev('response.output_item.done', { output_index: 0, item });
    ev('response.completed', { response: response('completed', [item], true) });
    res.end();
  };
  return { model, stream, decision, send };
}

function outputItem(d: Decision): Record<string, unknown> {
  if (d.kind === 'tool') {
    return {
      type: 'function_call',
      id: fakeId('fc_'),
      call_id: fakeId('call_'),
      name: d.name,
      arguments: JSON.stringify(d.args),
      status: 'completed',
    };
  }
  return {
    type: 'message',
    id: fakeId('msg_'),
    role: 'assistant',
    status: 'completed',
    content: [{ type: 'output_text', text: d.text, annotations: [] }],
  };
}
