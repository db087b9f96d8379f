// real CLIs: qwen, codex, claude
// `baton chat --local MODEL --endpoint URL` with a second fake LLM standing in for a local
// model server (the CLIs' own config points at the suite's other fake, so a request that
// reaches the "local" one was pointed there by baton): qwen3-coder runs in Qwen Code over
// Chat Completions, gpt-oss in Codex over Responses; the request carries the model name and
// the turn is recorded in the transcript under that harness and model. Any other model on
// an Anthropic-compatible server runs in Claude Code, even when the user's settings.json
// points Claude Code elsewhere. A conversation moves from a cloud agent to a local model and
// back: the local segment remembers its server (a later turn needs no --local), and the cloud
// agent, on its return, resumes its own session and is sent only what it missed.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { bodyContains, type FakeLlm, startFakeLlm } from '../fake-llm/server.js';
import { BatonInEnv, type ChatJson } from '../helpers/baton-in-env.js';

const s = suite('baton chat --local with real CLIs');
const home = new BatonInEnv(s, ['qwen', 'codex', 'claude'], '240');
const { chat, baton } = home;
let local: FakeLlm | undefined;
s.before.each(async () => {
  local = await startFakeLlm();
});
s.after.each(async () => {
  await local?.close();
  local = undefined;
});

const generated = (f: FakeLlm, text: string) => f.requests().filter((q) => q.kind === 'generate' && bodyContains(q, text));

s('qwen3-coder runs in Qwen Code against the endpoint', async () => {
  const r = await chat(['--local', 'qwen3-coder', '--endpoint', `${local!.url}/v1`, 'Local qwen: LOCAL-QWEN-7101.']);
  assert.is(r.agent, 'qwen');
  const reqs = generated(local!, 'LOCAL-QWEN-7101');
  assert.ok(reqs.length >= 1, 'the request reached the local endpoint');
  assert.is(reqs[0]!.api, 'openai-chat');
  assert.is(reqs[0]!.model, 'qwen3-coder');
  assert.is(generated(home.fake, 'LOCAL-QWEN-7101').length, 0, 'nothing went to the configured provider');
  const show = await baton(['transcript', 'show', r.conversation]);
  assert.match(show.out, /LOCAL-QWEN-7101/);
  assert.match(show.out, /FAKE-LLM reply/);
});

s('gpt-oss runs in Codex over Responses against the endpoint', async () => {
  const r = await chat(['--local', 'gpt-oss:20b', '--endpoint', local!.url, 'Local gpt-oss: LOCAL-OSS-7202.']);
  assert.is(r.agent, 'codex');
  const reqs = generated(local!, 'LOCAL-OSS-7202');
  assert.ok(reqs.length >= 1, 'the request reached the local endpoint');
  assert.is(reqs[0]!.api, 'openai-responses');
  assert.is(reqs[0]!.model, 'gpt-oss:20b');
  assert.is(generated(home.fake, 'LOCAL-OSS-7202').length, 0, 'nothing went to the configured provider');
  const show = await baton(['transcript', 'show', r.conversation]);
  assert.match(show.out, /LOCAL-OSS-7202/);
});

s("another model on an Anthropic-compatible server runs in Claude Code, over the user's settings", async () => {
  const settings = join(home.menv.home, '.claude');
  mkdirSync(settings, { recursive: true });
  writeFileSync(join(settings, 'settings.json'), JSON.stringify({ env: { ANTHROPIC_BASE_URL: home.fake.url, ANTHROPIC_AUTH_TOKEN: 'user-token' } }));
  const r = await chat(['--local', 'llama3.1:8b', '--endpoint', local!.url, 'Local llama: LOCAL-LLAMA-7303.']);
  assert.is(r.agent, 'claude');
  const reqs = generated(local!, 'LOCAL-LLAMA-7303');
  assert.ok(reqs.length >= 1, 'the request reached the local endpoint');
  assert.is(reqs[0]!.api, 'anthropic');
  assert.is(reqs[0]!.model, 'llama3.1:8b');
  assert.is(generated(home.fake, 'LOCAL-LLAMA-7303').length, 0, "the user's settings did not win");
});

s('cloud agent -> local model -> the next turn stays local -> back to the cloud agent, resumed natively', async () => {
  const cloud = await chat(['--new', '--agent', 'claude', 'Cloud first: CLOUD-FIRST-8101.']);
  const id = cloud.conversation;
  assert.ok(generated(home.fake, 'CLOUD-FIRST-8101').length >= 1);

  const toLocal = (await chat(['-c', id, '--local', 'qwen3-coder', '--endpoint', local!.url, 'Local now: LOCAL-FIRST-8202.'])) as ChatJson & {
    local: { endpoint: string; api: string } | null;
  };
  assert.is(toLocal.agent, 'qwen');
  assert.equal(toLocal.local, { endpoint: local!.url, api: 'openai-chat' });
  assert.is(toLocal.handoff?.from, 'claude');
  const first = generated(local!, 'LOCAL-FIRST-8202');
  assert.ok(first.length >= 1, 'the local turn reached the endpoint');
  assert.is(first[0]!.model, 'qwen3-coder');
  assert.ok(bodyContains(first[0]!, 'CLOUD-FIRST-8101'), "the brief carries the cloud agent's turn");

  // No --local: the conversation remembers the server and the model.
  const stay = (await chat(['-c', id, 'Still local: LOCAL-SECOND-8303.'])) as ChatJson & { local: { endpoint: string } | null };
  assert.is(stay.agent, 'qwen');
  assert.is(stay.handoff, null, 'no switch');
  assert.is(stay.local?.endpoint, local!.url);
  const second = generated(local!, 'LOCAL-SECOND-8303');
  assert.ok(second.length >= 1, 'the later turn reached the endpoint');
  assert.is(second[0]!.model, 'qwen3-coder');
  assert.ok(bodyContains(second[0]!, 'LOCAL-FIRST-8202'), "qwen's own session went on");
  assert.is(generated(home.fake, 'LOCAL-SECOND-8303').length, 0, 'nothing went to the configured provider');

  // Back to the cloud agent: its own session resumed, only what it missed sent.
  const before = home.fake.requests().length;
  const back = (await chat(['-c', id, '--agent', 'claude', 'Cloud again: CLOUD-AGAIN-8404.'])) as ChatJson & { local: unknown };
  assert.is(back.agent, 'claude');
  assert.is(back.local, null);
  assert.equal(back.handoff && [back.handoff.from, back.handoff.mode], ['qwen', 'resume']);
  const again = home.fake
    .requests()
    .slice(before)
    .filter((q) => q.kind === 'generate' && bodyContains(q, 'CLOUD-AGAIN-8404'));
  assert.ok(again.length >= 1, 'the cloud agent got the message');
  assert.ok(bodyContains(again[0]!, 'CLOUD-FIRST-8101'), "claude's own history (native resume)");
  assert.ok(bodyContains(again[0]!, 'LOCAL-SECOND-8303'), 'the delta it missed');
  assert.is(generated(local!, 'CLOUD-AGAIN-8404').length, 0, 'nothing went to the local server');
  const show = await baton(['transcript', 'show', id]);
  if (!/local model/.test(show.out)) console.log(show.out);
  assert.match(show.out, /to (Qwen Code|qwen) \(local model qwen3-coder at http:\/\/127\.0\.0\.1:\d+\)/);
});

s.run();
