// test/fake-llm/server.ts over real HTTP (fetch): each API streaming and not, tool-call
// markers in each API's native shape, tool results leading to a final text, structured
// output filled from the schema, context blocks skipped when echoing, and the request log
// in memory and as JSONL.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeLlm, type FakeLlm } from '../fake-llm/server.js';

type Json = Record<string, any>;

interface SseEvent {
  event?: string;
  data: string;
}

function parseSse(text: string): SseEvent[] {
  const out: SseEvent[] = [];
  for (const block of text.split('\n\n')) {
    if (!block.trim()) continue;
    const ev: SseEvent = { data: '' };
    for (const line of block.split('\n')) {
      if (line.startsWith('event: ')) ev.event = line.slice(7);
      else if (line.startsWith('data: ')) ev.data += line.slice(6);
    }
    out.push(ev);
  }
  return out;
}

let fake: FakeLlm;
let dir: string;

async function post(path: string, body: unknown): Promise<Response> {
  return fetch(`${fake.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

async function postJson(path: string, body: unknown): Promise<Json> {
  const res = await post(path, body);
  assert.is(res.status, 200, `${path} answered ${res.status}`);
  return (await res.json()) as Json;
}

async function postSse(path: string, body: unknown): Promise<SseEvent[]> {
  const res = await post(path, body);
  assert.is(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /text\/event-stream/);
  return parseSse(await res.text());
}

const bashTool = {
  type: 'function',
  function: {
    name: 'bash',
    parameters: { type: 'object', properties: { command: { type: 'string' }, description: { type: 'string' } }, required: ['command'] },
  },
};
const writeTool = {
  type: 'function',
  function: {
    name: 'write',
    parameters: { type: 'object', properties: { filePath: { type: 'string' }, content: { type: 'string' } }, required: ['filePath', 'content'] },
  },
};

function setup(name: string) {
  const s = suite(name);
  s.before.each(async () => {
    dir = mkdtempSync(join(tmpdir(), 'baton-fake-llm-'));
    fake = await startFakeLlm({ logFile: join(dir, 'log.jsonl') });
  });
  s.after.each(async () => {
    await fake.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return s;
}

// ── OpenAI Chat Completions ────────────────────────────────────────────────
const chat = setup('openai-chat');

chat('echoes the last user text, not the system prompt or earlier turns', async () => {
  const r = await postJson('/v1/chat/completions', {
    model: 'fake-model',
    messages: [
      { role: 'system', content: 'You are a tool.' },
      { role: 'user', content: 'first question' },
      { role: 'assistant', content: 'first answer' },
      { role: 'user', content: [{ type: 'text', text: 'second TOKEN-chat-1' }] },
    ],
  });
  assert.is(r.object, 'chat.completion');
  assert.is(r.choices[0].finish_reason, 'stop');
  assert.match(r.choices[0].message.content, 'second TOKEN-chat-1');
  assert.not.match(r.choices[0].message.content, 'first question');
  assert.ok(r.usage.total_tokens > 0);
});

chat('streams deltas that join to the same text, with usage and [DONE]', async () => {
  const events = await postSse('/v1/chat/completions', {
    model: 'fake-model',
    stream: true,
    stream_options: { include_usage: true },
    messages: [{ role: 'user', content: 'a rather long prompt so that the reply needs several chunks TOKEN-chat-2' }],
  });
  assert.is(events[events.length - 1]!.data, '[DONE]');
  const chunks = events.slice(0, -1).map((e) => JSON.parse(e.data) as Json);
  const text = chunks.map((c) => c.choices[0]?.delta?.content ?? '').join('');
  assert.match(text, 'TOKEN-chat-2');
  assert.ok(chunks.filter((c) => c.choices[0]?.delta?.content).length > 1, 'several content deltas');
  assert.is(chunks.find((c) => c.choices[0]?.finish_reason)?.choices[0].finish_reason, 'stop');
  assert.ok(
    chunks.some((c) => c.usage?.total_tokens > 0),
    'a usage chunk',
  );
});

chat('FAKE_SHELL becomes a streamed tool call to the declared shell tool', async () => {
  const events = await postSse('/v1/chat/completions', {
    model: 'fake-model',
    stream: true,
    tools: [bashTool, writeTool],
    messages: [{ role: 'user', content: 'please [[FAKE_SHELL: echo hi > x.txt]]' }],
  });
  const chunks = events.filter((e) => e.data !== '[DONE]').map((e) => JSON.parse(e.data) as Json);
  const calls = chunks.flatMap((c) => c.choices[0]?.delta?.tool_calls ?? []);
  assert.is(calls[0].function.name, 'bash');
  assert.ok(calls[0].id);
  const args = JSON.parse(calls.map((c: Json) => c.function.arguments ?? '').join(''));
  assert.is(args.command, 'echo hi > x.txt');
  assert.is(chunks.find((c) => c.choices[0]?.finish_reason)?.choices[0].finish_reason, 'tool_calls');
});

chat('markers run in order, one per request, then a final text with the last result', async () => {
  const user = { role: 'user', content: 'Working directory: /tmp/proj\n[[FAKE_SHELL: ls]] and [[FAKE_WRITE: notes/a.txt :: hello there]]' };
  const first = await postJson('/v1/chat/completions', { model: 'm', tools: [bashTool, writeTool], messages: [user] });
  const call1 = first.choices[0].message.tool_calls[0];
  assert.is(call1.function.name, 'bash');
  const second = await postJson('/v1/chat/completions', {
    model: 'm',
    tools: [bashTool, writeTool],
    messages: [user, { role: 'assistant', content: null, tool_calls: [call1] }, { role: 'tool', tool_call_id: call1.id, content: 'a.txt' }],
  });
  const call2 = second.choices[0].message.tool_calls[0];
  assert.is(call2.function.name, 'write');
  assert.equal(JSON.parse(call2.function.arguments), { filePath: '/tmp/proj/notes/a.txt', content: 'hello there' });
  const third = await postJson('/v1/chat/completions', {
    model: 'm',
    tools: [bashTool, writeTool],
    messages: [
      user,
      { role: 'assistant', content: null, tool_calls: [call1] },
      { role: 'tool', tool_call_id: call1.id, content: 'a.txt' },
      { role: 'assistant', content: null, tool_calls: [call2] },
      { role: 'tool', tool_call_id: call2.id, content: 'Wrote RESULT-77' },
    ],
  });
  const text: string = third.choices[0].message.content;
  assert.is(third.choices[0].finish_reason, 'stop');
  assert.match(text, 'done after 2 tool call(s)');
  assert.match(text, 'RESULT-77');
  assert.not.match(text, '[[FAKE_', 'the echo must not carry a live marker');
});

chat('a marker never becomes a call when the client declared no tools (background calls)', async () => {
  const r = await postJson('/v1/chat/completions', {
    model: 'm',
    messages: [{ role: 'user', content: 'summarize: [[FAKE_SHELL: rm -rf x]]' }],
  });
  assert.is(r.choices[0].finish_reason, 'stop');
  assert.not.ok(r.choices[0].message.tool_calls);
});

chat('response_format json_schema gets an object built from the schema', async () => {
  const r = await postJson('/v1/chat/completions', {
    model: 'm',
    messages: [{ role: 'user', content: 'classify' }],
    response_format: {
      type: 'json_schema',
      json_schema: {
        name: 'x',
        schema: { type: 'object', properties: { label: { enum: ['a', 'b'] }, score: { type: 'integer', minimum: 3 } }, required: ['label'] },
      },
    },
  });
  assert.equal(JSON.parse(r.choices[0].message.content), { label: 'a', score: 3 });
});

chat('title-generation calls get a short title', async () => {
  const r = await postJson('/v1/chat/completions', {
    model: 'm',
    messages: [
      { role: 'system', content: 'You are a title generator. You output ONLY a thread title.' },
      { role: 'user', content: 'hello' },
    ],
  });
  assert.is(r.choices[0].message.content, 'Fake conversation title');
});

// ── OpenAI Responses ───────────────────────────────────────────────────────
const responses = setup('openai-responses');

const execTool = {
  type: 'function',
  name: 'exec_command',
  parameters: { type: 'object', properties: { cmd: { type: 'string' }, workdir: { type: 'string' } }, required: ['cmd'] },
};

responses('streams the codex event sequence and skips environment_context / AGENTS.md', async () => {
  const events = await postSse('/v1/responses', {
    model: 'fake-model',
    stream: true,
    instructions: 'You are Codex.',
    input: [
      { type: 'message', role: 'developer', content: [{ type: 'input_text', text: '<permissions instructions>x</permissions instructions>' }] },
      {
        type: 'message',
        role: 'user',
        content: [{ type: 'input_text', text: '# AGENTS.md instructions for /repo\n\n<INSTRUCTIONS>\nbe nice\n</INSTRUCTIONS>' }],
      },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: '<environment_context>\n  <cwd>/repo</cwd>\n</environment_context>' }] },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hello TOKEN-resp-1' }] },
    ],
  });
  const names = events.map((e) => e.event);
  for (const n of ['response.created', 'response.output_item.added', 'response.output_text.delta', 'response.output_item.done', 'response.completed']) {
    assert.ok(names.includes(n), `has ${n}`);
  }
  assert.is(names[0], 'response.created');
  assert.is(names[names.length - 1], 'response.completed');
  const text = events
    .filter((e) => e.event === 'response.output_text.delta')
    .map((e) => JSON.parse(e.data).delta)
    .join('');
  assert.is(text, 'FAKE-LLM reply. You said: hello TOKEN-resp-1');
  const done = JSON.parse(events.find((e) => e.event === 'response.output_item.done')!.data);
  assert.is(done.item.content[0].text, text);
  const completed = JSON.parse(events[events.length - 1]!.data);
  assert.is(completed.response.status, 'completed');
  assert.ok(completed.response.usage.total_tokens > 0);
});

responses('FAKE_SHELL becomes a function_call to exec_command with cmd', async () => {
  const events = await postSse('/v1/responses', {
    model: 'fake-model',
    stream: true,
    tools: [execTool],
    input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: '[[FAKE_SHELL: touch a]]' }] }],
  });
  const added = JSON.parse(events.find((e) => e.event === 'response.output_item.added')!.data);
  assert.is(added.item.type, 'function_call');
  const done = JSON.parse(events.find((e) => e.event === 'response.output_item.done')!.data);
  assert.is(done.item.name, 'exec_command');
  assert.ok(done.item.call_id);
  assert.is(JSON.parse(done.item.arguments).cmd, 'touch a');
});

responses('FAKE_WRITE without a write tool writes through the shell, in the stated cwd', async () => {
  const r = await postJson('/v1/responses', {
    model: 'fake-model',
    tools: [execTool],
    input: [
      { role: 'user', content: [{ type: 'input_text', text: '<environment_context>\n  <cwd>/tmp/w d</cwd>\n</environment_context>' }] },
      { role: 'user', content: [{ type: 'input_text', text: "[[FAKE_WRITE: f.txt :: it's here]]" }] },
    ],
  });
  const item = r.output[0];
  assert.is(item.type, 'function_call');
  assert.is(JSON.parse(item.arguments).cmd, "mkdir -p '/tmp/w d' && printf '%s' 'it'\\''s here' > '/tmp/w d/f.txt'");
});

responses('after function_call_output, a final message; text.format gets a schema object', async () => {
  const r = await postJson('/v1/responses', {
    model: 'fake-model',
    tools: [execTool],
    input: [
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: '[[FAKE_SHELL: echo x]]' }] },
      { type: 'function_call', name: 'exec_command', arguments: '{"cmd":"echo x"}', call_id: 'c1' },
      { type: 'function_call_output', call_id: 'c1', output: 'OUT-42' },
    ],
  });
  assert.is(r.output[0].type, 'message');
  assert.match(r.output[0].content[0].text, 'OUT-42');
  const s = await postJson('/v1/responses', {
    model: 'fake-model',
    input: 'x',
    text: {
      format: {
        type: 'json_schema',
        name: 'n',
        schema: { type: 'object', properties: { ok: { type: 'boolean' }, tags: { type: 'array', items: { type: 'string' } } } },
      },
    },
  });
  assert.equal(JSON.parse(s.output[0].content[0].text), { ok: false, tags: [] });
});

// ── Anthropic Messages ─────────────────────────────────────────────────────
const anthropic = setup('anthropic');

const claudeTools = [
  { name: 'Bash', input_schema: { type: 'object', properties: { command: { type: 'string' }, description: { type: 'string' } }, required: ['command'] } },
  {
    name: 'Write',
    input_schema: { type: 'object', properties: { file_path: { type: 'string' }, content: { type: 'string' } }, required: ['file_path', 'content'] },
  },
];

anthropic('HEAD / answers 200 and is logged as a probe', async () => {
  const res = await fetch(`${fake.url}/`, { method: 'HEAD' });
  assert.is(res.status, 200);
  assert.is(fake.requests()[0]!.kind, 'probe');
});

anthropic('non-streaming, with ?beta=true, skips <system-reminder> blocks', async () => {
  const r = await postJson('/v1/messages?beta=true', {
    model: 'claude-opus-4-8',
    max_tokens: 100,
    system: [{ type: 'text', text: 'You are Claude Code.' }],
    messages: [
      {
        role: 'user',
        content: [
          { type: 'text', text: '<system-reminder>\nAs you answer, remember CLAUDE.md\n</system-reminder>' },
          { type: 'text', text: 'hi TOKEN-anth-1' },
          { type: 'text', text: '<system-reminder>late reminder</system-reminder>' },
        ],
      },
    ],
  });
  assert.is(r.type, 'message');
  assert.is(r.stop_reason, 'end_turn');
  assert.is(r.content[0].text, 'FAKE-LLM reply. You said: hi TOKEN-anth-1');
  assert.is(fake.requestsFor('anthropic')[0]!.model, 'claude-opus-4-8');
});

anthropic('streams message_start .. message_stop with text deltas', async () => {
  const events = await postSse('/v1/messages', {
    model: 'x',
    max_tokens: 100,
    stream: true,
    messages: [{ role: 'user', content: 'stream me TOKEN-anth-2' }],
  });
  const names = events.map((e) => e.event);
  assert.is(names[0], 'message_start');
  assert.is(names[names.length - 1], 'message_stop');
  assert.ok(names.includes('content_block_start') && names.includes('content_block_stop') && names.includes('message_delta'));
  const text = events
    .filter((e) => e.event === 'content_block_delta')
    .map((e) => JSON.parse(e.data).delta.text)
    .join('');
  assert.match(text, 'TOKEN-anth-2');
});

anthropic('FAKE_SHELL and FAKE_WRITE become tool_use blocks; Write gets an absolute path', async () => {
  const system = 'Here is useful information about the environment:\n<env>\nWorking directory: /tmp/claude-proj\n</env>';
  const user = { role: 'user', content: '[[FAKE_SHELL: date]] [[FAKE_WRITE: out/b.txt :: bee]]' };
  const events = await postSse('/v1/messages', { model: 'x', max_tokens: 9, stream: true, system, tools: claudeTools, messages: [user] });
  const start = JSON.parse(events.find((e) => e.event === 'content_block_start')!.data);
  assert.is(start.content_block.type, 'tool_use');
  assert.is(start.content_block.name, 'Bash');
  const json = events
    .filter((e) => e.event === 'content_block_delta')
    .map((e) => JSON.parse(e.data).delta.partial_json)
    .join('');
  assert.is(JSON.parse(json).command, 'date');
  assert.is(JSON.parse(events.find((e) => e.event === 'message_delta')!.data).delta.stop_reason, 'tool_use');

  const id = start.content_block.id;
  const second = await postJson('/v1/messages', {
    model: 'x',
    max_tokens: 9,
    system,
    tools: claudeTools,
    messages: [
      user,
      { role: 'assistant', content: [{ type: 'tool_use', id, name: 'Bash', input: { command: 'date' } }] },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: id, content: 'Mon' },
          { type: 'text', text: '<system-reminder>x</system-reminder>' },
        ],
      },
    ],
  });
  assert.is(second.content[0].type, 'tool_use');
  assert.is(second.content[0].name, 'Write');
  assert.equal(second.content[0].input, { file_path: '/tmp/claude-proj/out/b.txt', content: 'bee' });
});

anthropic('count_tokens answers input_tokens', async () => {
  const r = await postJson('/v1/messages/count_tokens?beta=true', { model: 'x', messages: [{ role: 'user', content: 'count me' }] });
  assert.ok(r.input_tokens > 0);
  assert.is(fake.requestsFor('anthropic')[0]!.kind, 'count_tokens');
});

// ── Gemini ─────────────────────────────────────────────────────────────────
const gemini = setup('gemini');

const routerSchema = {
  type: 'object',
  properties: {
    complexity_reasoning: { type: 'string' },
    complexity_score: { type: 'integer', minimum: 1, maximum: 100 },
  },
  required: ['complexity_reasoning', 'complexity_score'],
};

gemini('generateContent with responseJsonSchema: the router gets complexity_score >= 1', async () => {
  const r = await postJson('/v1beta/models/gemini-3.5-flash-lite:generateContent', {
    contents: [{ role: 'user', parts: [{ text: 'route me' }] }],
    generationConfig: { responseMimeType: 'application/json', responseJsonSchema: routerSchema },
  });
  const value = JSON.parse(r.candidates[0].content.parts[0].text);
  assert.ok(value.complexity_score >= 1);
  assert.type(value.complexity_reasoning, 'string');
  assert.is(r.candidates[0].finishReason, 'STOP');
  assert.is(fake.requestsFor('gemini')[0]!.model, 'gemini-3.5-flash-lite');
});

gemini('responseSchema in the OpenAPI style (upper-case types) is filled too', async () => {
  const r = await postJson('/v1beta/models/m:generateContent', {
    contents: [{ role: 'user', parts: [{ text: 'who speaks next' }] }],
    generationConfig: {
      responseMimeType: 'application/json',
      responseSchema: { type: 'OBJECT', properties: { reasoning: { type: 'STRING' }, next_speaker: { type: 'STRING', enum: ['model', 'user'] } } },
    },
  });
  assert.equal(JSON.parse(r.candidates[0].content.parts[0].text), { reasoning: 'fake reasoning', next_speaker: 'user' });
});

gemini('streamGenerateContent?alt=sse streams parts and skips <session_context>', async () => {
  const events = await postSse('/v1beta/models/gemini-3.8-flash:streamGenerateContent?alt=sse', {
    contents: [
      {
        role: 'user',
        parts: [{ text: '<session_context>\nThis is the Gemini CLI.\n</session_context>' }, { text: 'hello TOKEN-gem-1 with enough text to need chunks' }],
      },
    ],
  });
  const frames = events.map((e) => JSON.parse(e.data) as Json);
  const text = frames.map((f) => f.candidates[0].content.parts[0].text).join('');
  assert.is(text, 'FAKE-LLM reply. You said: hello TOKEN-gem-1 with enough text to need chunks');
  assert.ok(frames.length > 1);
  assert.is(frames[frames.length - 1]!.candidates[0].finishReason, 'STOP');
  assert.ok(frames[frames.length - 1]!.usageMetadata.totalTokenCount > 0);
  assert.ok(fake.requestsFor('gemini')[0]!.stream);
});

gemini('streamGenerateContent without alt=sse answers a JSON array', async () => {
  const r = (await postJson('/v1beta/models/m:streamGenerateContent', { contents: [{ role: 'user', parts: [{ text: 'arr' }] }] })) as unknown as Json[];
  assert.ok(Array.isArray(r));
  assert.match(r.map((f) => f.candidates[0].content.parts[0].text).join(''), 'You said: arr');
});

gemini("FAKE_SHELL becomes a functionCall with the tool's required arguments filled", async () => {
  const tools = [
    {
      functionDeclarations: [
        {
          name: 'run_shell_command',
          parametersJsonSchema: {
            type: 'object',
            properties: { command: { type: 'string' }, description: { type: 'string' }, is_background: { type: 'boolean' } },
            required: ['command', 'is_background'],
          },
        },
      ],
    },
  ];
  const user = { role: 'user', parts: [{ text: '[[FAKE_SHELL: pwd]]' }] };
  const r = await postJson('/v1beta/models/m:generateContent', { contents: [user], tools });
  const call = r.candidates[0].content.parts[0].functionCall;
  assert.is(call.name, 'run_shell_command');
  assert.equal(call.args, { command: 'pwd', is_background: false, description: 'Run a command for the fake LLM' });
  const r2 = await postJson('/v1beta/models/m:generateContent', {
    tools,
    contents: [
      user,
      { role: 'model', parts: [{ functionCall: call }] },
      { role: 'user', parts: [{ functionResponse: { name: 'run_shell_command', response: { output: '/gem/dir' } } }] },
    ],
  });
  assert.match(r2.candidates[0].content.parts[0].text, '/gem/dir');
});

gemini('countTokens and the model list answer', async () => {
  const c = await postJson('/v1beta/models/m:countTokens', { contents: [{ role: 'user', parts: [{ text: 'abc' }] }] });
  assert.ok(c.totalTokens > 0);
  const res = await fetch(`${fake.url}/v1beta/models`);
  const list = (await res.json()) as Json;
  assert.ok(list.models.length > 0);
  assert.match(list.models[0].name, /^models\//);
});

// ── Request log ────────────────────────────────────────────────────────────
const log = setup('request log');

log('every request is in requests() and, as one JSON line, in the log file (0600)', async () => {
  await postJson('/v1/chat/completions', { model: 'a', messages: [{ role: 'user', content: 'LOG-1' }] });
  await postJson('/v1/messages', { model: 'b', max_tokens: 1, messages: [{ role: 'user', content: 'LOG-2' }] });
  await postJson('/v1beta/models/c:generateContent', { contents: [{ role: 'user', parts: [{ text: 'LOG-3' }] }] });
  const notFound = await fetch(`${fake.url}/v1/nothing-here`, { method: 'POST', body: '{}' });
  assert.is(notFound.status, 404);

  const all = fake.requests();
  assert.equal(
    all.map((r) => r.api),
    ['openai-chat', 'anthropic', 'gemini', 'other'],
  );
  assert.equal(
    all.map((r) => r.seq),
    [1, 2, 3, 4],
  );
  assert.is(fake.requestsFor('anthropic').length, 1);
  assert.is(all[3]!.kind, 'unknown');
  const lines = readFileSync(fake.logFile!, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Json);
  assert.is(lines.length, 4);
  assert.is(lines[1]!.body.messages[0].content, 'LOG-2');
  assert.is(lines[2]!.path, '/v1beta/models/c:generateContent');
  assert.is(lines[0]!.reply.kind, 'text');
  assert.is(statSync(fake.logFile!).mode & 0o777, 0o600);
});

log('requestsContaining and waitForRequest find a request by its text', async () => {
  const waiting = fake.waitForRequest((r) => JSON.stringify(r.body).includes('WAIT-9'), 5000, 'WAIT-9');
  await postJson('/v1/messages/count_tokens', { model: 'x', messages: [{ role: 'user', content: 'WAIT-9' }] });
  await postJson('/v1/chat/completions', { model: 'x', messages: [{ role: 'user', content: 'say "WAIT-9"' }] });
  assert.is((await waiting).kind, 'count_tokens');
  assert.equal(
    fake.requestsContaining('say "WAIT-9"').map((r) => r.api),
    ['openai-chat'],
  );
  assert.equal(
    fake.requestsContaining('WAIT-9').map((r) => r.kind),
    ['generate'],
    'only model calls',
  );
  let message = '';
  try {
    await fake.waitForRequest(() => false, 50, 'NEVER');
  } catch (err) {
    message = String(err);
  }
  assert.match(message, /timed out after 50 ms waiting for NEVER; requests seen: 1 anthropic count_tokens/);
});

log('close() ends a client that keeps its connection open', async () => {
  await fetch(`${fake.url}/v1/models`, { headers: { connection: 'keep-alive' } });
  const closed = fake.close();
  await closed;
  let failed = false;
  try {
    await fetch(`${fake.url}/v1/models`);
  } catch {
    failed = true;
  }
  assert.ok(failed, 'the port no longer answers');
  fake = await startFakeLlm();
});

log('[[FAKE_ERROR: N]] answers with that status; [[FAKE_HANG]] is logged and never answered', async () => {
  const failed = await post('/v1/responses', { model: 'm', input: 'please fail [[FAKE_ERROR: 503]]' });
  assert.is(failed.status, 503);
  assert.match(((await failed.json()) as Json).error.message, 'scripted error 503');
  const hanging = post('/v1beta/models/g:streamGenerateContent?alt=sse', { contents: [{ role: 'user', parts: [{ text: 'wait [[FAKE_HANG]]' }] }] });
  const settled = hanging.then(
    () => 'answered',
    () => 'failed',
  );
  const deadline = Date.now() + 5000;
  while (fake.requests().length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  const all = fake.requests();
  assert.equal(
    all.map((r) => r.fault?.kind),
    ['error', 'hang'],
  );
  // Still pending after the request was logged: closing the server is what ends it.
  assert.is(await Promise.race([settled, new Promise((r) => setTimeout(() => r('pending'), 200))]), 'pending');
  await fake.close();
  assert.is(await settled, 'failed');
  fake = await startFakeLlm();
});

log('[[FAKE_HOLD: NAME]] holds the reply until release(NAME); once released, such requests are answered at once', async () => {
  const body = (text: string) => ({ model: 'm', messages: [{ role: 'user', content: text }] });
  const held = post('/v1/chat/completions', body('wait for it [[FAKE_HOLD: one]]'));
  const settled = held.then((r) => r.status);
  await fake.waitForRequest((r) => r.fault?.kind === 'hold', 5000, 'the held request');
  assert.is(await Promise.race([settled, new Promise((r) => setTimeout(() => r('pending'), 200))]), 'pending', 'held, not answered');
  fake.release('one');
  assert.is(await settled, 200, 'answered once released');
  const again = await post('/v1/chat/completions', body('again [[FAKE_HOLD: one]]'));
  assert.is(again.status, 200, 'a name already released holds nothing');
  assert.match(JSON.stringify(await again.json()), /You said: again/);
});

chat.run();
responses.run();
anthropic.run();
gemini.run();
log.run();
