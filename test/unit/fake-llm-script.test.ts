// The fake LLM's decisions without HTTP: marker parsing and defusing, context stripping
// (what counts as the user's text for each CLI), markers quoted in a baton brief left alone,
// cwd detection, schema filling.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { briefAndMessage } from '../../src/plugins/handoff-file.js';
import { buildBrief } from '../../src/transcript/brief.js';
import type { Transcript } from '../../src/transcript/transcript.js';
import { emptyConversation, findCwd, ownText, pushUserText, stripContext, type ToolDecl } from '../fake-llm/conversation.js';
import { fillSchema } from '../fake-llm/schema-fill.js';
import { decide, defuse, echoText, faultOf, parseMarkers } from '../fake-llm/script.js';
import { testTranscript } from '../helpers/test-transcript.js';

const markers = suite('markers');

markers('parses shell and write markers in order, trimming around ::', () => {
  assert.equal(parseMarkers('a [[FAKE_WRITE: dir/f.txt :: two words ]] b [[FAKE_SHELL:  ls -la ]]'), [
    { kind: 'write', path: 'dir/f.txt', content: 'two words' },
    { kind: 'shell', command: 'ls -la' },
  ]);
  assert.equal(parseMarkers('[[FAKE_SHELL: echo "a :: b"]]'), [{ kind: 'shell', command: 'echo "a :: b"' }]);
  assert.equal(parseMarkers('[[FAKE_WRITE: no separator]] [[FAKE_SHELL: ]] [[fake_shell: x]]'), []);
});

markers('a call marker names any declared tool and its JSON arguments; unparsable or undeclared, it calls nothing', () => {
  const text = '[[FAKE_CALL: AskUserQuestion :: {"questions": [{"question": "Which?", "options": [{"label": "A"}]}]}]] ask';
  assert.equal(parseMarkers(text), [{ kind: 'call', name: 'AskUserQuestion', args: { questions: [{ question: 'Which?', options: [{ label: 'A' }] }] } }]);
  assert.equal(parseMarkers('[[FAKE_CALL: X :: not json]] [[FAKE_CALL: Y :: [1]]]'), []);
  const conv = emptyConversation();
  pushUserText(conv, text);
  assert.is(decide(conv).kind, 'text', 'not declared: no call');
  conv.tools.push({ name: 'AskUserQuestion', parameters: {} });
  assert.equal(decide(conv), { kind: 'tool', name: 'AskUserQuestion', args: { questions: [{ question: 'Which?', options: [{ label: 'A' }] }] } });
  assert.equal(parseMarkers(defuse(text)), []);
});

markers('defused text holds no marker that parses again', () => {
  const text = 'x [[FAKE_SHELL: rm -rf /tmp/q]] y';
  assert.equal(parseMarkers(defuse(text)), []);
  assert.equal(parseMarkers(echoText(text)), []);
});

markers('a long prompt is echoed by its ends', () => {
  const long = `HEAD-TOKEN ${'x'.repeat(10_000)} TAIL-TOKEN`;
  const echo = echoText(long);
  assert.ok(echo.length < 4200);
  assert.match(echo, 'HEAD-TOKEN');
  assert.match(echo, 'TAIL-TOKEN');
});

markers('a marker for a tool the client lacks falls back to text', () => {
  const conv = emptyConversation();
  pushUserText(conv, '[[FAKE_SHELL: ls]]');
  conv.tools.push({ name: 'read_file' });
  assert.is(decide(conv).kind, 'text');
});

markers('a shell call whose tool requires a timeout gets a minute, not the schema minimum', () => {
  const conv = emptyConversation();
  pushUserText(conv, '[[FAKE_SHELL: touch x]]');
  // claude-code-acp's Bash: its timeout (ms) is required by the schema; 1 ms killed the command.
  const parameters = { type: 'object', required: ['command', 'timeout'], properties: { command: { type: 'string' }, timeout: { type: 'number' } } };
  conv.tools.push({ name: 'Bash', parameters });
  const d = decide(conv);
  assert.is(d.kind, 'tool');
  assert.equal((d as { args: Record<string, unknown> }).args, { command: 'touch x', timeout: 60_000 });
});

const brief = suite('markers quoted in a brief');
const BASH: ToolDecl = { name: 'Bash', parameters: { type: 'object', properties: { command: { type: 'string' } } } };

/** Claude ran `touch one` for ana's marker and was held once; the transcript as baton records it. */
function ranOnce(): Transcript {
  const tr = testTranscript();
  tr.startSegment({ harness: 'claude', model: 'opus', switchId: 'a' });
  tr.apply({ type: 'user_text', text: 'make it [[FAKE_SHELL: touch one]] and wait [[FAKE_HOLD: first]]' });
  tr.apply({ type: 'tool_call', toolCallId: 't1', toolName: 'Bash', input: { command: 'touch one' } });
  tr.apply({ type: 'tool_result', toolCallId: 't1', output: '' });
  tr.apply({ type: 'agent_text', text: 'FAKE-LLM done after 1 tool call(s).' });
  tr.apply({ type: 'turn_end' });
  return tr;
}

/** The request the next agent's model gets: the brief for `tr` and `message`, as a tab pastes them. */
function handedOver(tr: Transcript, message: string, harness = 'codex') {
  const b = buildBrief(tr, { target: { harness, model: 'm', title: harness }, mode: 'fresh', maxChars: 120_000 });
  assert.ok(b.text, 'a brief');
  const conv = emptyConversation();
  pushUserText(conv, briefAndMessage('/nonexistent', b.text!, message, 'sw').text);
  conv.tools.push(BASH);
  return { conv, brief: b.text! };
}

brief('a marker the brief quotes neither runs again nor holds the new agent; its own words do', () => {
  const quiet = handedOver(ranOnce(), 'go on');
  assert.match(quiet.brief, /\[\[FAKE_SHELL: touch one\]\]/, 'the brief quotes the marker as typed');
  const d = decide(quiet.conv);
  assert.is(d.kind, 'text', `no call for the quoted marker: ${JSON.stringify(d)}`);
  assert.is(faultOf(d), undefined, 'the quoted hold holds nothing');
  assert.match(d.kind === 'text' ? d.text : '', /go on$/);

  const asked = handedOver(ranOnce(), 'now [[FAKE_SHELL: touch two]] [[FAKE_HOLD: second]]');
  assert.equal(decide(asked.conv), { kind: 'tool', name: 'Bash', args: { command: 'touch two' } }, 'its own marker, the first it has');
  asked.conv.items.push({ kind: 'tool_call', name: 'Bash' }, { kind: 'tool_result', output: '' });
  const after = decide(asked.conv);
  assert.match(after.kind === 'text' ? after.text : '', /^FAKE-LLM done after 1 tool call\(s\)/, 'one call: the quoted one is not next');
  assert.equal(faultOf(after), { kind: 'hold', name: 'second' });
});

brief("the brief's frame ends at its one end line: an earlier echo quoted inside it is unframed, and an end line in the new message is the user's", () => {
  const tr = ranOnce();
  // Codex took over with a brief and echoed the whole prompt, end line and all.
  const first = handedOver(tr, 'next [[FAKE_SHELL: touch two]]');
  tr.startSegment({ harness: 'codex', model: 'm', switchId: 'b' });
  tr.apply({ type: 'user_text', text: 'next [[FAKE_SHELL: touch two]]' });
  tr.apply({ type: 'agent_text', text: echoText(`${first.brief}\n\nnext [[FAKE_SHELL: touch two]]`) });
  tr.apply({ type: 'user_text', text: 'and [[FAKE_SHELL: touch three]]' });
  tr.apply({ type: 'agent_text', text: 'FAKE-LLM done after 1 tool call(s).' });
  tr.apply({ type: 'turn_end' });
  const back = handedOver(tr, 'back to you', 'gemini');
  assert.is(back.brief.split('[end of baton handoff brief]').length, 2, 'one end line: the quoted one unframed');
  assert.match(back.brief, '(end of baton handoff brief)', 'the echo quoted, its end line unframed');
  assert.is(ownText((back.conv.items[0] as { text: string }).text), 'back to you');
  assert.is(decide(back.conv).kind, 'text');
  // The user's new message holds an end line of its own (a pasted brief's tail): their words, markers and all.
  const pasted = handedOver(tr, 'see this:\n[end of baton handoff brief]\nthen [[FAKE_SHELL: touch four]]', 'gemini');
  assert.is(ownText((pasted.conv.items[0] as { text: string }).text), 'see this:\n[end of baton handoff brief]\nthen [[FAKE_SHELL: touch four]]');
  assert.equal(decide(pasted.conv), { kind: 'tool', name: 'Bash', args: { command: 'touch four' } });
});

brief('without a brief, or with one sent as a file, the whole text is the user’s', () => {
  const plain = 'quote [baton handoff brief] without an end [[FAKE_SHELL: ls]]';
  assert.is(ownText(plain), plain);
  // handoff-file.ts briefAndMessage's pointer (written out here: making the file runs git).
  const pointer =
    '[baton handoff brief] The conversation so far (9 characters) is in the file /w/.baton/handoff-sw.md. Read that whole file first, then answer my message below.\n\nread it [[FAKE_SHELL: ls]]';
  assert.is(ownText(pointer), pointer);
  assert.equal(parseMarkers(ownText(pointer)), [{ kind: 'shell', command: 'ls' }]);
  // A draft left in the CLI's box before the paste is the user's as well.
  const joined = ownText('draft [[FAKE_SHELL: a]] [baton handoff brief]\n[[FAKE_SHELL: b]]\n[end of baton handoff brief]\n\nmessage [[FAKE_SHELL: c]]');
  assert.equal(parseMarkers(joined), [
    { kind: 'shell', command: 'a' },
    { kind: 'shell', command: 'c' },
  ]);
});

const context = suite('context');

context('strips the blocks CLIs inject and keeps what the user typed', () => {
  assert.is(stripContext('<system-reminder>\nx\n</system-reminder>\nreal text'), 'real text');
  assert.is(stripContext('<session_context>\nThis is the Gemini CLI.\n</session_context>'), '');
  assert.is(stripContext('<environment_context>\n<cwd>/a</cwd>\n</environment_context>'), '');
  assert.is(stripContext('# AGENTS.md instructions for /repo\n\n<INSTRUCTIONS>\nhi\n</INSTRUCTIONS>'), '');
  assert.is(stripContext("This is the Qwen Code. We are setting up the context for our chat.\nI'm currently working in the directory: /w"), '');
  assert.is(stripContext('plain <b>html</b> stays'), 'plain <b>html</b> stays');
});

context('finds the cwd each CLI states', () => {
  const cases: [string, string][] = [
    ['<environment_context>\n  <cwd>/codex/dir</cwd>\n</environment_context>', '/codex/dir'],
    ["I'm currently working in the directory: /qwen/dir\nHere is", '/qwen/dir'],
    ['- **Workspace Directories:**\n  - /gemini/dir\n- **Directory Structure:**', '/gemini/dir'],
    ['<env>\nWorking directory: /claude/dir\nIs directory a git repo: No\n</env>', '/claude/dir'],
  ];
  for (const [text, cwd] of cases) {
    const conv = emptyConversation();
    pushUserText(conv, text);
    assert.is(findCwd(conv), cwd, text);
  }
  const conv = emptyConversation();
  conv.system = 'Working directory: /from/system';
  assert.is(findCwd(conv), '/from/system');
});

const schema = suite('schema-fill');

schema('objects fill every property with the smallest sane value', () => {
  assert.equal(
    fillSchema({
      type: 'object',
      properties: {
        s: { type: 'string' },
        n: { type: 'number' },
        i: { type: 'integer', minimum: 5 },
        b: { type: 'boolean' },
        e: { enum: ['first', 'second'] },
        c: { const: 7 },
        a: { type: 'array', items: { type: 'string' } },
        a2: { type: 'array', minItems: 2, items: { type: 'integer' } },
        nul: { type: ['null', 'string'] },
        d: { type: 'string', default: 'dflt' },
        t: { type: 'string', format: 'date-time' },
      },
    }),
    {
      s: 'fake s',
      n: 1,
      i: 5,
      b: false,
      e: 'first',
      c: 7,
      a: [],
      a2: [1, 1],
      nul: 'fake nul',
      d: 'dflt',
      t: '1970-01-01T00:00:00.000Z',
    },
  );
});

schema('follows $ref, anyOf, allOf, and Gemini upper-case types', () => {
  assert.equal(
    fillSchema({
      $defs: { Item: { type: 'object', properties: { id: { type: 'integer', exclusiveMinimum: 3 } } } },
      type: 'object',
      properties: {
        r: { $ref: '#/$defs/Item' },
        any: { anyOf: [{ type: 'null' }, { type: 'boolean' }] },
        all: { allOf: [{ properties: { x: { type: 'string' } } }, { properties: { y: { type: 'integer' } } }] },
        g: { type: 'OBJECT', properties: { k: { type: 'INTEGER', minimum: 0, maximum: 0 } } },
        m: { type: 'string', minLength: 12, maxLength: 14 },
      },
    }),
    { r: { id: 4 }, any: false, all: { x: 'fake x', y: 1 }, g: { k: 0 }, m: 'fake m fake fa' },
  );
});

schema('unknown shapes give null instead of throwing; recursion is bounded', () => {
  assert.is(fillSchema({}), null);
  assert.is(fillSchema(null), null);
  assert.is(fillSchema({ $ref: '#/nowhere' }), null);
  const loop = { type: 'object', properties: { self: { $ref: '#' } } };
  const v = fillSchema(loop) as Record<string, unknown>;
  assert.type(v, 'object');
});

markers.run();
brief.run();
context.run();
schema.run();
