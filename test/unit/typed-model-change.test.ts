// The parts of a model change typed into Gemini CLI's and Qwen Code's own TUI (issue 14 item 2)
// that need no running CLI: where the input box is on their screens (the last `>` line; the
// ones above echo earlier input), what a log gained since a byte offset, and the cases where
// nothing may be typed at all: a name outside the safe charset, a session without a log, and
// for Qwen Code a settings file baton could not put back as it was (JSON with comments) or
// whose default already is the name (the switch could not be told from a refusal). The typing
// itself is tested against the real CLIs in test/real/tui-model.test.ts.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { changeGeminiModel } from '../../plugins/gemini/model-change.js';
import { changeQwenModel } from '../../plugins/qwen/model-change.js';
import { chatsDir } from '../../plugins/qwen/home.js';
import { appendedSince, fileSize, jsonRecords, stillInInput } from '../../src/plugins/typed-command.js';

const s = suite('a model change typed into a CLI');
let dir = '';
s.before.each(() => {
  dir = mkdtempSync(join(tmpdir(), 'baton-typed-model-'));
});
s.after.each(() => rmSync(dir, { recursive: true, force: true }));

// Screens as the two TUIs drew them (0.61.0 and 0.15.10, by hand in tmux).
const GEMINI = [
  ' > hello FIRST-TURN-G',
  '✦ FAKE-LLM reply. You said: hello FIRST-TURN-G',
  ' > /model set gemini-2.5-pro',
  'ℹ Model set to gemini-2.5-pro',
  '─────────',
  ' Shift+Tab to accept edits',
  ' >   Type your message or @path/to/file',
  ' workspace (/directory)        sandbox        /model',
  ' /tmp/work                     no sandbox     gemini-2.5-pro',
];
const QWEN_PENDING = [
  '  > hello FIRST-Q2',
  '  ✦ FAKE-LLM reply. You said: hello FIRST-Q2',
  '─────────',
  '> /model other-model  \u200b',
  '─────────',
  '  ? for shortcuts',
];

s('stillInInput: the input box is the last prompt line, not the history echo above it', () => {
  assert.not.ok(stillInInput(GEMINI, '/model set gemini-2.5-pro'), 'gemini ran it: the echo alone has it');
  assert.ok(stillInInput([...GEMINI.slice(0, 6), ' > /model set gemini-2.5-pro', ...GEMINI.slice(7)], '/model set gemini-2.5-pro'));
  assert.ok(stillInInput(QWEN_PENDING, '/model other-model '), "qwen's completion took the Enter");
  assert.not.ok(stillInInput(['no prompt at all'], '/model x'));
});

s('appendedSince and jsonRecords: only what the log gained, whole records only', () => {
  const log = join(dir, 'log.jsonl');
  assert.is(fileSize(log), 0);
  assert.equal(appendedSince(log, 0), []);
  writeFileSync(log, '{"type":"user","content":"old"}\n');
  const from = fileSize(log);
  assert.equal(jsonRecords(appendedSince(log, from)), []);
  appendFileSync(log, '{"type":"info","content":"Model set to m"}\n{"type":"inf');
  assert.equal(jsonRecords(appendedSince(log, from)), [{ type: 'info', content: 'Model set to m' }]);
});

/** A change whose typing is recorded rather than sent: these cases must type nothing. */
function recorder() {
  const typed: string[] = [];
  return { typed, write: (d: string) => void typed.push(d), screen: () => [], timeoutMs: 1_000 };
}

s('gemini: an unsafe name or a session without a chat log is unsupported, nothing typed', async () => {
  const env = { HOME: dir };
  const r = recorder();
  const bad = await changeGeminiModel({ session: 'a1b2c3d4-0000-4000-8000-000000000000', model: 'x; rm -rf ~', env, ...r });
  assert.is(bad.kind, 'unsupported');
  const none = await changeGeminiModel({ session: 'a1b2c3d4-0000-4000-8000-000000000000', model: 'gemini-2.5-pro', env, ...r });
  assert.is(none.kind, 'unsupported');
  assert.equal(r.typed, []);
});

s('qwen: settings it could not put back, or already naming the model, are unsupported, nothing typed', async () => {
  const home = join(dir, 'home');
  const cwd = join(dir, 'work');
  const session = 'b1b2c3d4-0000-4000-8000-000000000000';
  const chats = chatsDir(join(home, '.qwen'), cwd);
  mkdirSync(chats, { recursive: true });
  writeFileSync(join(chats, `${session}.jsonl`), '{"type":"user"}\n');
  const settings = join(home, '.qwen', 'settings.json');
  const env = { HOME: home, PWD: cwd };
  const r = recorder();
  const change = (model: string) => changeQwenModel({ session, model, env, cwd, ...r });

  const commented = '{\n  // mine\n  "model": { "name": "fake-model" }\n}\n';
  writeFileSync(settings, commented);
  assert.is((await change('other-model')).kind, 'unsupported');
  assert.is(readFileSync(settings, 'utf8'), commented, 'left as it was');

  writeFileSync(settings, JSON.stringify({ model: { name: 'other-model' } }));
  assert.is((await change('other-model')).kind, 'unsupported');
  mkdirSync(join(cwd, '.qwen'), { recursive: true });
  writeFileSync(join(cwd, '.qwen', 'settings.json'), JSON.stringify({ model: { name: 'third-model' } }));
  assert.is((await change('third-model')).kind, 'unsupported', "the project's own settings count too");

  assert.is((await changeQwenModel({ session: 'c1b2c3d4-0000-4000-8000-000000000000', model: 'other-model', env, cwd, ...r })).kind, 'unsupported');
  assert.equal(r.typed, []);
});

s.run();
