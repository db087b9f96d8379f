// src/tui/local-model-dialog.ts, its pure parts: where the "Local model…" row goes in a
// picker (after the agents, before the plain shell) and the probe's hints said the dialog's
// way (no command-line flags a TUI user cannot give).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Emitter } from '../../src/lifecycle/index.js';
import { LOCAL_ROW, tuiHint, withLocalRow } from '../../src/tui/local-model-dialog.js';
import type { PickerChoice } from '../../src/tui/picker.js';

type V = { kind: 'agent'; name: string } | { kind: 'shell' };
const live = (rows: PickerChoice<V>[]) => ({ list: () => rows, note: () => 'a note', onChange: new Emitter<void>().event });

test('the row comes after the agents and before the plain shell; without a shell, last', () => {
  const agent: PickerChoice<V> = { label: 'Qwen Code', value: { kind: 'agent', name: 'qwen' } };
  const shell: PickerChoice<V> = { label: 'Plain shell', value: { kind: 'shell' } };
  assert.equal(
    withLocalRow(live([agent, shell]))
      .list()
      .map((r) => r.label),
    ['Qwen Code', LOCAL_ROW.label, 'Plain shell'],
  );
  assert.equal(
    withLocalRow(live([agent]))
      .list()
      .map((r) => r.label),
    ['Qwen Code', LOCAL_ROW.label],
  );
  assert.is(withLocalRow(live([])).note(), 'a note');
});

test("the probe's and the chooser's hints lose their command-line flags", () => {
  assert.is(tuiHint('start it (e.g. `ollama serve`) or name another with --endpoint URL'), 'start it (e.g. `ollama serve`) or try another server');
  assert.is(
    tuiHint('install qwen or opencode (see `baton agents`), or name one with --agent'),
    'install qwen or opencode (see `baton agents`), or pick an installed agent from the list',
  );
  assert.match(tuiHint('check --endpoint (is the server running?)'), /^check the server address/);
});

test.run();
