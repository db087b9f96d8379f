// The local endpoint probe against the fake LLM (standing in for an OpenAI- and
// Anthropic-compatible local server): its models and the three APIs are found; a port
// where nothing listens is a BatonError naming the endpoint.
import { createServer } from 'node:net';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { BatonError, EXIT } from '../../src/errors.js';
import { normalizeEndpoint, probeEndpoint } from '../../src/plugins/local-endpoint.js';
import { startFakeLlm } from '../fake-llm/server.js';

test('the fake LLM speaks Chat Completions, Responses and Anthropic Messages, and lists models', async () => {
  const fake = await startFakeLlm();
  try {
    const p = await probeEndpoint(normalizeEndpoint(`${fake.url}/v1`));
    assert.equal([...p.apis].sort(), ['anthropic-messages', 'openai-chat', 'openai-responses']);
    assert.ok(p.models.length > 0, 'some models listed');
  } finally {
    await fake.close();
  }
});

test('nothing listening: exit 2 naming the endpoint', async () => {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as { port: number }).port;
  await new Promise<void>((r) => srv.close(() => r()));
  const endpoint = `http://127.0.0.1:${port}`;
  const e = await probeEndpoint(endpoint, 2000).catch((err: unknown) => err);
  assert.instance(e, BatonError);
  assert.is((e as BatonError).exitCode, EXIT.badInput);
  assert.match((e as BatonError).message, endpoint);
});

test.run();
