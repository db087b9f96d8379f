// Gemini (generativelanguage v1beta), as gemini-cli speaks it through @google/genai:
// models/{m}:generateContent, :streamGenerateContent (?alt=sse, else a JSON array),
// :countTokens, and the model list. Contents hold parts (text, functionCall,
// functionResponse); tools are functionDeclarations; structured output comes as
// generationConfig.responseJsonSchema or responseSchema (gemini's router asks for a
// complexity_score, which schema-fill makes >= 1).
// It must never drop a request it cannot parse: it answers with an echo of nothing.
import type { ServerResponse } from 'node:http';
import { asArray, asObject, emptyConversation, pushUserText, textOf, type Conversation } from './conversation.js';
import { decide, type Decision, type Served } from './script.js';
import { chunks, fakeId, sendEvent, sendJson, startSse, tokens } from './sse.js';

export const GEMINI_MODELS = ['gemini-2.5-pro', 'gemini-2.5-flash', 'gemini-2.5-flash-lite', 'gemini-3-pro-preview', 'gemini-3-flash-preview'];

export function parseGemini(body: Record<string, unknown>): Conversation {
  const conv = emptyConversation();
  conv.system = textOf(asObject(body.systemInstruction).parts ?? body.systemInstruction);
  for (const raw of asArray(body.contents)) {
    const c = asObject(raw);
    const texts: string[] = [];
    for (const p of asArray(c.parts).map(asObject)) {
      if (typeof p.text === 'string' && !p.thought) texts.push(p.text);
      else if (p.functionCall) conv.items.push({ kind: 'tool_call', name: String(asObject(p.functionCall).name ?? '') });
      else if (p.functionResponse) {
        conv.items.push({ kind: 'tool_result', output: JSON.stringify(asObject(p.functionResponse).response ?? {}) });
      }
    }
    if (c.role === 'model') {
      if (texts.length) conv.items.push({ kind: 'assistant_text', text: texts.join('\n') });
    } else pushUserText(conv, texts.join('\n'));
  }
  for (const t of asArray(body.tools).map(asObject)) {
    for (const fd of asArray(t.functionDeclarations).map(asObject)) {
      if (typeof fd.name === 'string') conv.tools.push({ name: fd.name, parameters: fd.parametersJsonSchema ?? fd.parameters });
    }
  }
  const gc = asObject(body.generationConfig);
  const schema = gc.responseJsonSchema ?? gc.responseSchema;
  if (schema) conv.schema = schema;
  else if (gc.responseMimeType === 'application/json') conv.jsonMode = true;
  return conv;
}

/** Serves models/{model}:{method}; returns undefined for a method it does not know. */
export function serveGemini(model: string, method: string, sse: boolean, body: Record<string, unknown>): Served | undefined {
  if (method === 'countTokens') {
    const req = asObject(body.generateContentRequest ?? body);
    const totalTokens = tokens(JSON.stringify(req.contents ?? ''));
    return { model, stream: false, send: (res) => sendJson(res, 200, { totalTokens }) };
  }
  if (method === 'embedContent' || method === 'batchEmbedContents') {
    const n = method === 'embedContent' ? 1 : asArray(body.requests).length;
    const embeddings = Array.from({ length: n }, () => ({ values: new Array(8).fill(0) }));
    const reply = method === 'embedContent' ? { embedding: embeddings[0] } : { embeddings };
    return { model, stream: false, send: (res) => sendJson(res, 200, reply) };
  }
  if (method !== 'generateContent' && method !== 'streamGenerateContent') return undefined;
  const decision = decide(parseGemini(body));
  const stream = method === 'streamGenerateContent';
  const promptTokenCount = tokens(JSON.stringify(body.contents ?? ''));
  const outTok = tokens(decision.kind === 'tool' ? JSON.stringify(decision.args) : decision.text);
  const responseId = fakeId('');
  const usageMetadata = { promptTokenCount, candidatesTokenCount: outTok, totalTokenCount: promptTokenCount + outTok };
  const frame = (parts: unknown[], finish: boolean) => ({
    candidates: [{ content: { role: 'model', parts }, index: 0, ...(finish ? { finishReason: 'STOP' } : {}) }],
    ...(finish ? { usageMetadata } : {}),
    modelVersion: model,
    responseId,
  });
  const frames =
    decision.kind === 'tool'
      ? [frame([{ functionCall: { name: decision.name, args: decision.args } }], true)]
      : streamFrames(decision, stream).map((t, i, all) => frame([{ text: t }], i === all.length - 1));
  const send = (res: ServerResponse) => {
    if (!stream) {
      sendJson(res, 200, frames[0]);
    } else if (sse) {
      startSse(res);
      for (const f of frames) sendEvent(res, f);
      res.end();
    } else {
      sendJson(res, 200, frames);
    }
  };
  return { model, stream, decision, send };
}

function streamFrames(d: Exclude<Decision, { kind: 'tool' }>, stream: boolean): string[] {
  return stream ? chunks(d.text) : [d.text];
}

export function geminiModel(name: string): Record<string, unknown> {
  return {
    name: `models/${name}`,
    version: '001',
    displayName: `Fake ${name}`,
    description: "Served by baton's fake LLM",
    inputTokenLimit: 1_048_576,
    outputTokenLimit: 65_536,
    supportedGenerationMethods: ['generateContent', 'streamGenerateContent', 'countTokens'],
  };
}
