import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BatonError } from '../../src/errors.js';
import { InputRouter, describeBindings, loadKeyConfig, pasteAsKeys, tmuxPrefixNote, type KeyConfig, type RouterAction } from '../../src/tui/keys.js';

const s = suite('keys: configuration');

function withUserKeys(content: string | undefined, fn: (env: NodeJS.ProcessEnv, path: string) => void): void {
  const dir = mkdtempSync(join(tmpdir(), 'baton-keys-'));
  try {
    const path = join(dir, 'baton', 'keys.json');
    if (content !== undefined) {
      mkdirSync(join(dir, 'baton'));
      writeFileSync(path, content);
    }
    fn({ XDG_CONFIG_HOME: dir, HOME: dir }, path);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

s('defaults: prefix C-b and every binding of the issue', () => {
  withUserKeys(undefined, (env) => {
    const cfg = loadKeyConfig({ env });
    assert.is(cfg.prefix, 'C-b');
    assert.is(cfg.prefixBytes, '\x02');
    const expect: Record<string, string> = {
      c: 'new-tab',
      n: 'next-tab',
      p: 'prev-tab',
      a: 'switch-agent',
      m: 'compose',
      t: 'transcript',
      '?': 'help',
      x: 'close-tab',
      q: 'quit',
      '[': 'scroll-mode',
    };
    for (const [k, v] of Object.entries(expect)) assert.is(cfg.bindings.get(k), v, k);
    for (let i = 0; i <= 9; i++) assert.is(cfg.bindings.get(String(i)), `select-tab:${i}`);
    assert.is(cfg.sources.length, 1);
  });
});

s('a user file is merged over the defaults: new prefix, rebound and unbound keys', () => {
  withUserKeys(JSON.stringify({ prefix: 'C-a', bindings: { N: 'new-tab', x: null, k: 'close-tab' } }), (env, path) => {
    const cfg = loadKeyConfig({ env });
    assert.is(cfg.prefix, 'C-a');
    assert.is(cfg.prefixBytes, '\x01');
    assert.is(cfg.bindings.get('N'), 'new-tab');
    assert.is(cfg.bindings.get('c'), 'new-tab');
    assert.is(cfg.bindings.get('x'), undefined);
    assert.is(cfg.bindings.get('k'), 'close-tab');
    assert.is(cfg.sources.at(-1), path);
  });
});

for (const [what, content, message] of [
  ['broken JSON', '{"prefix": ', /bad key configuration .*keys\.json/],
  ['an unknown command', '{"bindings": {"c": "launch"}}', /unknown command "launch"/],
  ['an unknown key', '{"bindings": {"Hyper-x": "quit"}}', /unknown key "Hyper-x"/],
  ['a printable prefix', '{"prefix": "b"}', /prefix "b" must be a control or meta key/],
  ['an unknown field', '{"keys": {}}', /unknown field "keys"/],
] as const) {
  s(`a user file with ${what} is an error naming the file`, () => {
    withUserKeys(content, (env, path) => {
      try {
        loadKeyConfig({ env });
        assert.unreachable('should have thrown');
      } catch (e) {
        assert.instance(e, BatonError);
        assert.is((e as BatonError).exitCode, 2);
        assert.ok((e as BatonError).message.includes(path), (e as Error).message);
        assert.match((e as Error).message, message);
        assert.ok((e as BatonError).hint);
      }
    });
  });
}

s('help lines cover every binding, 0-9 folded', () => {
  withUserKeys(undefined, (env) => {
    const lines = describeBindings(loadKeyConfig({ env }));
    const keys = lines.map((l) => l.keys);
    assert.ok(keys.includes('C-b 0-9'));
    assert.ok(keys.includes('C-b C-b'));
    assert.is(lines.length, 15);
    assert.ok(keys.includes('C-b d'), 'detach');
    assert.ok(keys.includes('C-b !'), 'approvals');
    assert.ok(keys.includes('C-b M'), 'mode');
    assert.is(lines[0]!.keys, 'C-b c');
  });
});

s('inside tmux with the prefix C-b: a note names the user key file and the JSON; none outside tmux or with another prefix', () => {
  withUserKeys(undefined, (env, path) => {
    const c = loadKeyConfig({ env });
    assert.is(tmuxPrefixNote(c, env), undefined);
    const note = tmuxPrefixNote(c, { ...env, TMUX: '/tmp/tmux-1000/default,1,0' })!;
    assert.ok(note.full.includes(`${path}, e.g. {"prefix": "C-a"}`), note.full);
    assert.ok(note.short.length + 1 <= 80, 'the short one fits a status line at 80 columns');
  });
  withUserKeys('{"prefix": "C-a"}', (env) => {
    assert.is(tmuxPrefixNote(loadKeyConfig({ env }), { ...env, TMUX: '/tmp/tmux-1000/default,1,0' }), undefined);
  });
});

s.run();

const r = suite('keys: input router');

function cfg(): KeyConfig {
  let c: KeyConfig | undefined;
  withUserKeys(undefined, (env) => (c = loadKeyConfig({ env })));
  return c!;
}

function route(router: InputRouter, ...chunks: string[]): RouterAction[] {
  const out: RouterAction[] = [];
  for (const chunk of chunks) router.feed(chunk, (a) => out.push(a));
  return out;
}

r('everything but the prefix goes to the pane as the same bytes', () => {
  const router = new InputRouter(cfg());
  const keys = 'ls -la\r\x03\x1b\x1b[A\x1b[15~\x1bx\x1b[1;5C日本😀';
  const actions = route(router, keys);
  assert.equal(actions, [{ kind: 'pane', data: keys }]);
});

r('prefix then a bound key is a command; the rest of the read goes on to the pane', () => {
  const router = new InputRouter(cfg());
  assert.equal(route(router, 'ab\x02cde'), [
    { kind: 'pane', data: 'ab' },
    { kind: 'command', command: 'new-tab', key: 'c' },
    { kind: 'pane', data: 'de' },
  ]);
});

r('prefix and key in separate reads', () => {
  const router = new InputRouter(cfg());
  assert.equal(route(router, '\x02', '3'), [{ kind: 'command', command: 'select-tab:3', key: '3' }]);
});

r('prefix twice sends the prefix through; prefix + unbound key is reported, prefix + Esc cancels', () => {
  const router = new InputRouter(cfg());
  assert.equal(route(router, '\x02\x02'), [{ kind: 'pane', data: '\x02' }]);
  assert.equal(route(router, '\x02z'), [{ kind: 'unbound', key: 'z' }]);
  assert.equal(route(router, '\x02\x1b', 'a'), [{ kind: 'pane', data: 'a' }]);
});

r('pasted text is one paste, even when it holds the prefix byte or spans reads', () => {
  const router = new InputRouter(cfg());
  assert.equal(route(router, 'x\x1b[200~a\x02c', 'd\r\x1b[201~y'), [
    { kind: 'pane', data: 'x' },
    { kind: 'paste', text: 'a\x02cd\r' },
    { kind: 'pane', data: 'y' },
  ]);
});

r('a paste whose end marker is split across reads ends there, not at some later marker', () => {
  const router = new InputRouter(cfg());
  assert.equal(route(router, '\x1b[200~big\rpaste\x1b[2', '01~after'), [
    { kind: 'paste', text: 'big\rpaste' },
    { kind: 'pane', data: 'after' },
  ]);
  assert.equal(route(router, '\x1b[200~a\x1b', '[201', '~b'), [
    { kind: 'paste', text: 'a' },
    { kind: 'pane', data: 'b' },
  ]);
});

r('a paste while a view has the keyboard is one ui-paste, never keys: its newline presses no Enter', () => {
  const router = new InputRouter(cfg());
  router.mode = 'ui';
  assert.equal(route(router, 'x\x1b[200~one\rtwo\x02c\x1b[201~\r'), [
    { kind: 'ui', data: 'x' },
    { kind: 'ui-paste', text: 'one\rtwo\x02c' },
    { kind: 'ui', data: '\r' },
  ]);
});

r('pasteAsKeys: one line for views that take keys, nothing in it acts as a key', () => {
  assert.is(pasteAsKeys('a\r\nb\rc\nd\te'), 'a b c d e');
  assert.is(pasteAsKeys('\x1b[31mred\x1b[0m\x02q\x1b'), 'redq');
});

r('focus reports from the outer terminal are told apart from keys', () => {
  const router = new InputRouter(cfg());
  assert.equal(route(router, 'a\x1b[Ib\x1b[O'), [
    { kind: 'pane', data: 'a' },
    { kind: 'focus', focused: true },
    { kind: 'pane', data: 'b' },
    { kind: 'focus', focused: false },
  ]);
});

r('a command that opens a view switches the rest of the same read to it', () => {
  const router = new InputRouter(cfg());
  const out: RouterAction[] = [];
  router.feed('\x02[\x1b[5~q', (a) => {
    out.push(a);
    if (a.kind === 'command' && a.command === 'scroll-mode') router.mode = 'ui';
  });
  assert.equal(out, [
    { kind: 'command', command: 'scroll-mode', key: '[' },
    { kind: 'ui', data: '\x1b[5~' },
    { kind: 'ui', data: 'q' },
  ]);
});

r('an Esc and the prefix in one read are two keys: the view gets the Esc, the prefix commands', () => {
  const router = new InputRouter(cfg());
  router.mode = 'ui';
  const out: RouterAction[] = [];
  // The compose bar focused: Esc leaves it, C-b m comes back to it, and Enter sends from it.
  const compose = (a: RouterAction) => {
    out.push(a);
    if (a.kind === 'ui' && a.data === '\x1b') router.mode = 'pane';
    if (a.kind === 'command' && a.command === 'compose') router.mode = 'ui';
  };
  router.feed('hi\x1b\x02m\r', compose);
  assert.equal(out, [
    { kind: 'ui', data: 'h' },
    { kind: 'ui', data: 'i' },
    { kind: 'ui', data: '\x1b' },
    { kind: 'command', command: 'compose', key: 'm' },
    { kind: 'ui', data: '\r' },
  ]);
  // An Esc the view keeps open for (a queued message selected is let go): it gets the prefix as a key too.
  out.length = 0;
  router.mode = 'ui';
  router.feed('\x1b\x02', (a) => out.push(a));
  assert.equal(out, [
    { kind: 'ui', data: '\x1b' },
    { kind: 'ui', data: '\x02' },
  ]);
  // Alt with any other key is still one key.
  out.length = 0;
  router.feed('\x1bx', (a) => out.push(a));
  assert.equal(out, [{ kind: 'ui', data: '\x1bx' }]);
});

r('a key that closes a view hands the rest of the same read back: q, then prefix q', () => {
  const router = new InputRouter(cfg());
  router.mode = 'ui';
  const out: RouterAction[] = [];
  router.feed('q\x02qls', (a) => {
    out.push(a);
    if (a.kind === 'ui' && a.data === 'q') router.mode = 'pane';
  });
  assert.equal(out, [
    { kind: 'ui', data: 'q' },
    { kind: 'command', command: 'quit', key: 'q' },
    { kind: 'pane', data: 'ls' },
  ]);
});

r.run();
