// The bytes baton's ACP view draws, parsed by the same emulator a tab uses (PaneScreen): what
// is done is written once and scrolls into the history; the live area (streaming text, open
// cards, status and input) is redrawn in place, never duplicated; a live area taller than the
// screen shows its end; a resize draws everything again at the new width; the status line
// says what the view driver reads back as the tab's status.
import { readFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { SessionUpdate } from '../../src/plugins/acp-client.js';
import { viewStatusFromScreen } from '../../src/plugins/acp-view-driver.js';
import { ViewModel, type ViewRecord } from '../../src/tui/acp-view-model.js';
import { type Footer, ViewScreen } from '../../src/tui/acp-view-screen.js';
import { PaneScreen } from '../../src/tui/pane-screen.js';

const s = suite('acp-view screen');

const fixture = (name: string) => JSON.parse(readFileSync(new URL(`../fixtures/acp-view/${name}.json`, import.meta.url), 'utf8')) as ViewRecord[];
const footer = (f: Partial<Footer> = {}): Footer => ({ title: 'opencode', input: '', queued: 0, state: 'ready', ...f });

function rig(cols = 60, rows = 12) {
  const model = new ViewModel();
  const view = new ViewScreen(model);
  const term = new PaneScreen(cols, rows, 1000);
  let first = true;
  const frame = (f: Partial<Footer> = {}, size = { cols, rows }) => {
    assert.ok(term.parse(view.frame(size.cols, size.rows, footer(f), first)));
    first = false;
  };
  const all = () => Array.from({ length: term.endLine - term.firstLine }, (_, i) => term.lineText(term.firstLine + i).trimEnd());
  const screen = () => Array.from({ length: term.rows }, (_, y) => term.rowText(y).trimEnd());
  return { model, term, frame, all, screen };
}

const count = (lines: string[], needle: string) => lines.filter((l) => l.includes(needle)).length;

s('a captured turn drawn frame by frame: every line once, the card asked then answered, the footer last', () => {
  const r = rig();
  try {
    for (const rec of fixture('opencode-write-allowed')) {
      r.model.apply(rec);
      r.frame();
      if (rec.t === 'permission') {
        assert.is(viewStatusFromScreen(r.screen()), 'approval', r.screen().join('\n'));
        assert.match(r.screen().join('\n'), '⚑ Permission needed');
      }
    }
    r.frame({ input: 'next message' });
    const all = r.all();
    assert.is(count(all, 'write it [[FAKE_WRITE'), 1, all.join('\n'));
    assert.is(count(all, 'Edit $SCRATCH/work/hello.txt'), 1, all.join('\n'));
    assert.is(count(all, 'allowed once'), 1);
    assert.is(count(all, 'Permission needed'), 0, 'the answered card is drawn as its answer only');
    assert.is(count(all, '2569 in'), 1);
    const screen = r.screen();
    assert.match(screen.filter(Boolean).at(-1)!, '› next message');
    assert.is(viewStatusFromScreen(screen), 'idle');
  } finally {
    r.term.dispose();
  }
});

s('streaming text is redrawn in place while it grows, then kept once', () => {
  const r = rig(40, 8);
  try {
    r.model.apply({ t: 'user', text: 'go' });
    for (let i = 0; i < 30; i++) {
      r.model.apply({ t: 'update', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `word${i} ` } } as SessionUpdate });
      r.frame();
      assert.is(viewStatusFromScreen(r.screen()), 'working');
    }
    r.model.apply({ t: 'turn_end', stopReason: 'end_turn' });
    r.frame();
    const joined = r.all().join(' ');
    for (let i = 0; i < 30; i++) assert.is(joined.split(`word${i} `).length - 1, 1, `word${i} once: ${joined}`);
    assert.ok(r.term.history.length + r.term.screenTop - r.term.firstLine > 0, 'the start scrolled above the screen');
  } finally {
    r.term.dispose();
  }
});

s('a live area taller than the screen shows its end (the footer and the input stay visible)', () => {
  const r = rig(40, 6);
  try {
    r.model.apply({ t: 'user', text: 'go' });
    r.model.apply({
      t: 'update',
      update: {
        sessionUpdate: 'agent_message_chunk',
        content: { type: 'text', text: Array.from({ length: 20 }, (_, i) => `line ${i}`).join('\n') },
      } as SessionUpdate,
    });
    r.frame({ input: 'typing' });
    const screen = r.screen();
    assert.match(screen.join('\n'), '› typing');
    assert.match(screen.join('\n'), 'working');
  } finally {
    r.term.dispose();
  }
});

s('a resize draws everything again at the new width, nothing twice', () => {
  const r = rig(60, 10);
  try {
    for (const rec of fixture('opencode-shell')) r.model.apply(rec);
    r.frame();
    r.term.resize(30, 10);
    r.frame({}, { cols: 30, rows: 10 });
    const all = r.all();
    assert.is(count(all, 'run it [[FAKE_SHELL'), 1, all.join('\n'));
    for (const l of all) assert.ok(l.length <= 30, l);
  } finally {
    r.term.dispose();
  }
});

s('a long pasted message shows its end in the input box; the starting and ended states are said', () => {
  const model = new ViewModel();
  const view = new ViewScreen(model);
  const text = view
    .footer(40, footer({ input: Array.from({ length: 10 }, (_, i) => `pasted ${i}`).join('\n') }))
    .map((l) => l.map((x) => x.text).join(''))
    .join('\n');
  assert.match(text, '[10 lines; the last shown]');
  assert.match(text, 'pasted 9');
  assert.not.match(text, 'pasted 2');
  const starting = view.footer(40, footer({ state: 'starting' })).map((l) => l.map((x) => x.text).join(''));
  assert.is(viewStatusFromScreen(starting), 'working');
  const gone = view.footer(40, footer({ state: 'gone', note: 'opencode exited with code 1' })).map((l) => l.map((x) => x.text).join(''));
  assert.is(viewStatusFromScreen(gone), 'exited');
  assert.match(gone.join('\n'), 'exited with code 1');
});

s.run();
