// real CLIs: opencode, codex
// `baton chat --local MODEL --endpoint URL` run in OpenCode, with a second fake LLM standing
// in for a local model server, and only the named CLIs on PATH (so Claude Code and Qwen Code
// are not installed for baton). opencode's own config (the suite's) points at the other fake,
// so a request that reaches the "local" one was pointed there by baton. llama3.1 matches only
// the registry's "others" rule and runs in OpenCode over Chat Completions, the request
// carrying the model name; a later turn without --local stays on the server in opencode's own
// session; a switch to a cloud agent (Codex) and back resumes each natively. qwen3-coder with
// Qwen Code absent falls through to OpenCode.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { bodyContains, type FakeLlm, startFakeLlm } from '../fake-llm/server.js';
import { BatonInEnv, type ChatJson } from '../helpers/baton-in-env.js';

const s = suite('baton chat --local in OpenCode');
const home = new BatonInEnv(s, ['opencode', 'codex'], '240', { pathOnly: true });
const { chat, baton } = home;
let local: FakeLlm | undefined;
s.before.each(async () => {
  local = await startFakeLlm();
});
s.after.each(async () => {
  await local?.close();
  local = undefined;
});

type LocalChat = ChatJson & { local: { endpoint: string; api: string } | null };
const generated = (f: FakeLlm, text: string) => f.requests().filter((q) => q.kind === 'generate' && bodyContains(q, text));

s('llama3.1 (the "others" rule) runs in OpenCode on the server, stays there, and a cloud agent and back resume natively', async () => {
  const first = await baton(['chat', '--json', '--timeout', home.timeoutS, '--local', 'llama3.1', '--endpoint', local!.url, 'Local llama: OC-LOCAL-9101.']);
  assert.is(first.code, 0, first.err);
  assert.match(first.err, new RegExp(`baton: llama3\\.1 at ${local!.url}: opencode \\(others family, openai-chat\\)`));
  const r = JSON.parse(first.out) as LocalChat;
  const id = r.conversation;
  assert.is(r.agent, 'opencode');
  assert.equal(r.local, { endpoint: local!.url, api: 'openai-chat' });
  const reqs = generated(local!, 'OC-LOCAL-9101');
  assert.ok(reqs.length >= 1, 'the request reached the local endpoint');
  assert.is(reqs[0]!.api, 'openai-chat');
  assert.is(reqs[0]!.model, 'llama3.1');
  // (baton's probe of each API is a POST of `{}`.)
  const asked = local!.requests().filter((q) => q.kind === 'generate' && JSON.stringify(q.body) !== '{}');
  assert.ok(asked.length >= 2, 'the turn and the title');
  assert.ok(
    asked.every((q) => q.api === 'openai-chat' && q.model === 'llama3.1'),
    'every request opencode made (the title too) went with the local model',
  );
  assert.is(home.fake.requests().filter((q) => q.kind === 'generate').length, 0, "nothing went to opencode's configured provider");

  // No --local: the conversation remembers the server; opencode's own session goes on.
  const stay = (await chat(['-c', id, 'Still local: OC-LOCAL-9202.'])) as LocalChat;
  assert.is(stay.agent, 'opencode');
  assert.is(stay.handoff, null, 'no switch');
  assert.is(stay.local?.endpoint, local!.url);
  const second = generated(local!, 'OC-LOCAL-9202');
  assert.ok(second.length >= 1, 'the later turn reached the endpoint');
  assert.is(second[0]!.model, 'llama3.1');
  assert.ok(bodyContains(second[0]!, 'OC-LOCAL-9101'), "opencode's own session went on (the first turn is in the request)");

  // To a cloud agent: the brief carries the local turns.
  const cloud = (await chat(['-c', id, '--agent', 'codex', 'Cloud now: OC-CLOUD-9303.'])) as LocalChat;
  assert.is(cloud.agent, 'codex');
  assert.is(cloud.local, null);
  const toCloud = generated(home.fake, 'OC-CLOUD-9303');
  assert.ok(toCloud.length >= 1, 'the cloud turn reached the configured provider');
  assert.ok(bodyContains(toCloud[0]!, 'OC-LOCAL-9202'), 'the brief carries the local turns');
  assert.is(generated(local!, 'OC-CLOUD-9303').length, 0, 'nothing of it went to the local server');

  // Back to opencode, named without --local: its local server and its own session, resumed.
  const back = (await chat(['-c', id, '--agent', 'opencode', 'Local again: OC-LOCAL-9404.'])) as LocalChat;
  assert.is(back.agent, 'opencode');
  assert.equal(back.handoff && [back.handoff.from, back.handoff.mode], ['codex', 'resume']);
  assert.is(back.local?.endpoint, local!.url);
  const again = generated(local!, 'OC-LOCAL-9404');
  assert.ok(again.length >= 1, 'the returning turn reached the local server');
  assert.is(again[0]!.model, 'llama3.1');
  assert.ok(bodyContains(again[0]!, 'OC-LOCAL-9101'), "opencode's own history (native resume)");
  assert.ok(bodyContains(again[0]!, 'OC-CLOUD-9303'), 'the delta it missed');
  assert.is(generated(home.fake, 'OC-LOCAL-9404').length, 0, 'nothing went to the configured provider');

  // And the cloud agent again: its own session resumed too.
  const cloudAgain = (await chat(['-c', id, '--agent', 'codex', 'Cloud again: OC-CLOUD-9505.'])) as LocalChat;
  assert.equal(cloudAgain.handoff && [cloudAgain.handoff.from, cloudAgain.handoff.mode], ['opencode', 'resume']);
  const last = generated(home.fake, 'OC-CLOUD-9505');
  assert.ok(last.length >= 1);
  assert.ok(bodyContains(last[0]!, 'OC-CLOUD-9303'), "codex's own history (native resume)");
  assert.ok(bodyContains(last[0]!, 'OC-LOCAL-9404'), 'the delta it missed');

  const show = await baton(['transcript', 'show', id]);
  assert.match(show.out, /to opencode \(local model llama3\.1 at http:\/\/127\.0\.0\.1:\d+\)/);
});

s('qwen3-coder with Qwen Code not installed falls through to OpenCode', async () => {
  const r = await baton([
    'chat',
    '--json',
    '--timeout',
    home.timeoutS,
    '--local',
    'qwen3-coder',
    '--endpoint',
    `${local!.url}/v1`,
    'Local qwen: OC-QWEN-9606.',
  ]);
  assert.is(r.code, 0, r.err);
  assert.match(r.err, /baton: qwen3-coder at http:\/\/127\.0\.0\.1:\d+: opencode \(qwen family, openai-chat\)/);
  assert.is((JSON.parse(r.out) as ChatJson).agent, 'opencode');
  const reqs = generated(local!, 'OC-QWEN-9606');
  assert.ok(reqs.length >= 1, 'the request reached the local endpoint');
  assert.is(reqs[0]!.model, 'qwen3-coder');
  assert.is(generated(home.fake, 'OC-QWEN-9606').length, 0, 'nothing went to the configured provider');
});

s.run();
