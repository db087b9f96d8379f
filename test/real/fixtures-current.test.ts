// real CLIs: claude, codex, gemini, qwen, opencode, claude-code-acp
// The captured logs in test/fixtures/<cli>/ that the parsers' unit tests read are still what
// the pinned CLIs write: each CLI's capture (test/fixtures/<cli>/capture.ts: headless turns,
// and a TUI session where a fixture comes from the TUI) runs afresh against the fake LLM, and
// baton's parser must make of each new file the same events as of the committed one: the
// same types in the same order, each with the same fields of the same kinds, and the same
// number of records it does not know. A CLI release that changes its log format fails here,
// naming the file; re-capture with that capture.ts, then fix the parser and its unit tests.
// claude's tui-reply-written-first.jsonl is not re-captured: a race the CLI loses at random.
// The same for the ACP sessions captured for baton's view (test/fixtures/acp-view: opencode,
// Gemini CLI, Qwen Code, claude-code-acp; capture.ts there): a fresh session through the same
// steps must make the view draw the same blocks, each with the same fields of the same kinds.
// Captures run two at a time (each in its own home, with its own fake LLM): they mostly wait
// for the CLIs. Each CLI's test only awaits its capture, started with the file.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeLlm } from '../fake-llm/server.js';
import { captureView, VIEW_AGENTS, type ViewAgent } from '../fixtures/acp-view/capture.js';
import { capture as claude } from '../fixtures/claude/capture.js';
import { capture as codex } from '../fixtures/codex/capture.js';
import { capture as gemini } from '../fixtures/gemini/capture.js';
import { capture as opencode } from '../fixtures/opencode/capture.js';
import { capture as qwen } from '../fixtures/qwen/capture.js';
import { cliEnv, REPO_ROOT } from '../helpers/cli-env.js';
import type { Capture } from '../helpers/fixture-capture.js';
import { FIXTURE_PARSERS, shapes, viewShapes } from '../helpers/fixture-parse.js';

const CAPTURES = { claude, codex, gemini, qwen, opencode } satisfies Record<keyof typeof FIXTURE_PARSERS, Capture>;
type Cli = keyof typeof CAPTURES;
const NOT_CAPTURED = new Set(['claude/tui-reply-written-first.jsonl']);
const AT_ONCE = 2;

const only = process.env.BATON_TEST_CLIS?.split(',').filter(Boolean);
const clis = (Object.keys(CAPTURES) as Cli[]).filter((c) => !only?.length || only.includes(c));
const viewAgents = VIEW_AGENTS.filter((c) => !only?.length || only.includes(c));

let slots = AT_ONCE;
const queue: (() => void)[] = [];
async function slot<T>(work: () => Promise<T>): Promise<T> {
  if (slots === 0) await new Promise<void>((r) => queue.push(r));
  else slots--;
  try {
    return await work();
  } finally {
    const next = queue.shift();
    if (next) next();
    else slots++;
  }
}

/** One CLI's capture in a fresh home against a fresh fake LLM; the files it made, by name. */
function captureAfresh(cli: Cli): Promise<Record<string, string>> {
  return slot(async () => {
    const fake = await startFakeLlm();
    const env = cliEnv(cli, { fakeUrl: fake.url });
    try {
      return await CAPTURES[cli](env, fake);
    } finally {
      await env.cleanup();
      await fake.close();
    }
  });
}

/** One agent's ACP session for the view, captured in a fresh home against a fresh fake LLM. */
function captureViewAfresh(cli: ViewAgent): Promise<Record<string, string>> {
  return slot(async () => {
    const fake = await startFakeLlm();
    const env = cliEnv(cli, { fakeUrl: fake.url });
    try {
      return await captureView(cli, env, fake);
    } finally {
      await env.cleanup();
      await fake.close();
    }
  });
}

const fresh = new Map(clis.map((cli) => [cli, captureAfresh(cli)] as const));
const freshViews = new Map(viewAgents.map((cli) => [cli, captureViewAfresh(cli)] as const));
// Awaited by each CLI's test; a capture that fails fails that test, not the process.
for (const p of [...fresh.values(), ...freshViews.values()]) p.catch(() => {});

for (const cli of clis) {
  const s = suite(`${cli} log fixtures`);
  s(`a fresh capture parses as the committed files in test/fixtures/${cli}/ do`, async () => {
    const files = await fresh.get(cli)!;
    for (const [file, parse] of Object.entries(FIXTURE_PARSERS[cli])) {
      if (NOT_CAPTURED.has(`${cli}/${file}`)) continue;
      assert.ok(file in files, `the capture made ${file}`);
      const committed = await parse(readFileSync(join(REPO_ROOT, 'test/fixtures', cli, file), 'utf8'));
      const now = await parse(files[file]!);
      assert.is(now.skipped, committed.skipped, `${cli}/${file}: records the parser does not know`);
      assert.equal(shapes(now.events), shapes(committed.events), `${cli}/${file}: the events and their fields`);
    }
  });
  s.run();
}

for (const cli of viewAgents) {
  const s = suite(`${cli} acp-view fixtures`);
  s(`a fresh ACP session of ${cli} draws in the view as the committed test/fixtures/acp-view/${cli}-*.json do`, async () => {
    const files = await freshViews.get(cli)!;
    assert.ok(Object.keys(files).length > 0);
    for (const [file, text] of Object.entries(files)) {
      const committed = readFileSync(join(REPO_ROOT, 'test/fixtures/acp-view', file), 'utf8');
      assert.equal(viewShapes(text), viewShapes(committed), `acp-view/${file}: the blocks the view makes and their fields`);
    }
  });
  s.run();
}
