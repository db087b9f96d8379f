// The fake LLM's decisions without HTTP: marker parsing and defusing, context stripping
// (what counts as the user's text for each CLI), cwd detection, schema filling.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { emptyConversation, findCwd, pushUserText, stripContext } from '../fake-llm/conversation.js';
import { fillSchema } from '../fake-llm/schema-fill.js';
import { decide, defuse, echoText, parseMarkers } from '../fake-llm/script.js';

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
context.run();
schema.run();
