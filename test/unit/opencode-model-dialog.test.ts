// plugins/opencode/model-dialog.ts: opencode 1.18.33's model dialog read from screen lines
// (the screens below are the real TUI's, captured against the fake LLM): open or not, its
// search, its rows in order with title, provider and the current mark, only the dialog's own
// columns when it is drawn over the session's text; the row matched to opencode's ACP name;
// what is typed into its search.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readModelDialog, rowIs, searchText } from '../../plugins/opencode/model-dialog.js';

const pad = (n: number) => ' '.repeat(n);

/** The dialog searched for "Fake Model": two rows, the current one first. */
const TWO = [
  `  ┃  hello first turn${pad(70)}Context`,
  `${pad(44)}Select model${pad(37)}esc`,
  '',
  `${pad(44)}Fake Model`,
  '',
  `${pad(42)}● Fake Model${pad(38)}Fake`,
  `${pad(44)}Fake Model 2${pad(36)}Fake`,
  '',
  `${pad(44)}Connect provider ctrl+a  Favorite ctrl+f`,
  '',
  `  ┃  Build · Fake Model Fake${pad(60)}/tmp/work`,
];

/** Searched for "Free", drawn over the session's text on the left. */
const OVER = [
  `  ┃  second turn on model two${pad(15)}Select model${pad(37)}esc`,
  '',
  `     FAKE-LLM reply. You said: second tu    Free`,
  '',
  `     ▣  Build · Fake Model 2 · 324ms        LongCat 2.5 Preview Free                OpenCode Zen`,
  `${pad(44)}Space Bunny Free                        OpenCode Zen`,
  '',
  `${pad(44)}Connect provider ctrl+a  Favorite ctrl+f`,
];

test('closed: no dialog', () => {
  assert.is(readModelDialog(['  ┃  Build · Fake Model Fake', '   /tmp/work   2.5K  ctrl+p commands']), undefined);
});

test('the search and the rows in order, the current one marked, up to the key hints', () => {
  assert.equal(readModelDialog(TWO), {
    search: 'Fake Model',
    rows: [
      { title: 'Fake Model', provider: 'Fake', current: true },
      { title: 'Fake Model 2', provider: 'Fake', current: false },
    ],
  });
});

test("only the dialog's own columns: the session's text beside it is not a row", () => {
  const dialog = readModelDialog(OVER)!;
  assert.is(dialog.search, 'Free');
  assert.equal(
    dialog.rows.map((r) => `${r.provider}/${r.title}`),
    ['OpenCode Zen/LongCat 2.5 Preview Free', 'OpenCode Zen/Space Bunny Free'],
  );
});

test('the placeholder before anything is typed; a heading without a provider is not a row', () => {
  const open = [`${pad(44)}Select model${pad(37)}esc`, '', `${pad(44)}Search`, '', `${pad(44)}Fake`, `${pad(44)}Fake Model 2${pad(36)}Fake`];
  assert.equal(readModelDialog(open), { search: 'Search', rows: [{ title: 'Fake Model 2', provider: 'Fake', current: false }] });
});

test("a row is the model whose ACP name is '<provider name>/<title>', a cut title by what is left of it", () => {
  const row = { title: 'Fake Model 2', provider: 'Fake', current: false };
  assert.ok(rowIs(row, 'Fake/Fake Model 2'));
  assert.not.ok(rowIs(row, 'Fake/Fake Model'));
  assert.not.ok(rowIs({ ...row, title: 'Fake Model' }, 'Fake/Fake Model 2'), 'a title that is only the start of another is not it');
  assert.not.ok(rowIs(row, 'Other/Fake Model 2'));
  assert.ok(rowIs({ title: 'A very long model na…', provider: 'P', current: false }, 'P/A very long model name indeed'));
});

test('the search typed: letters, digits, spaces and . _ - only', () => {
  assert.is(searchText('Fake Model 2'), 'Fake Model 2');
  assert.is(searchText('GPT-5.1 (high) \u001b[31m; rm'), 'GPT-5.1 high 31m rm');
  assert.is(searchText('\r\n'), '');
});

test.run();
