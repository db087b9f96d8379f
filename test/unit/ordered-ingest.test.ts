// src/conversation/ordered-ingest.ts: events behind work under way (a typed message's
// checkpoint) wait their turn and then go through in the log's order, also when one of them
// needs work of its own; settled() waits for all of it.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { OrderedIngest } from '../../src/conversation/ordered-ingest.js';

/** A promise and the function that settles it. */
function gate(): { open: () => void; opened: Promise<void> } {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return { open, opened };
}

test('events after held work wait for it, then go in order; one needing work holds the rest again', async () => {
  const seen: string[] = [];
  const gates = new Map([
    ['typed-1', gate()],
    ['typed-2', gate()],
  ]);
  const order: OrderedIngest<string> = new OrderedIngest((e) => {
    const g = gates.get(e);
    if (!g) return void seen.push(e);
    order.hold(async () => {
      await g.opened;
      seen.push(`${e}+checkpoint`);
    });
  });
  order.take('a');
  order.take('typed-1');
  order.take('b');
  order.take('typed-2');
  order.take('c');
  assert.equal(seen, ['a'], 'b waits behind typed-1');
  gates.get('typed-2')!.open();
  gates.get('typed-1')!.open();
  await new Promise((r) => setTimeout(r, 0));
  await order.settled();
  assert.equal(seen, ['a', 'typed-1+checkpoint', 'b', 'typed-2+checkpoint', 'c']);
});

test.run();
