// What the approvals overlay (prefix !) reads off a tab waiting for approval: the question and
// the answers of baton's own view's card, as the view draws them (a captured opencode write);
// a screen without such a card (a CLI's own dialog) offers none, so nothing is typed there.
import { readFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { cardOf } from '../../src/tui/approvals.js';
import { ViewModel, type ViewRecord } from '../../src/tui/acp-view-model.js';
import { ViewScreen } from '../../src/tui/acp-view-screen.js';
import { lineText } from '../../src/tui/acp-view-text.js';
import { drawBlock } from '../../src/tui/acp-view-cards.js';

const s = suite('approvals');

s("a view's card: its question and its keys with their labels", () => {
  const records = JSON.parse(readFileSync(new URL('../fixtures/acp-view/opencode-write-allowed.json', import.meta.url), 'utf8')) as ViewRecord[];
  const model = new ViewModel();
  for (const r of records.slice(
    0,
    records.findIndex((r) => r.t === 'decision'),
  ))
    model.apply(r);
  const view = new ViewScreen(model);
  const lines = [
    ...model.blocks.flatMap((b) => drawBlock(b, { width: 90 })),
    ...view.footer(90, { title: 'opencode', input: '', queued: 0, state: 'ready' }),
  ].map(lineText);
  const card = cardOf(lines)!;
  assert.is(card.question, '$SCRATCH/work/hello.txt');
  assert.equal(
    card.answers.map((a) => [a.key, a.label]),
    [
      ['y', 'Allow once'],
      ['a', 'Always allow'],
      ['n', 'Reject'],
    ],
  );
});

s("a CLI's own dialog is not a card: no answers offered", () => {
  assert.is(cardOf(['Allow execution of: rm -rf build?', '● 1. Yes, allow once', '  2. No']), undefined);
});

s.run();
