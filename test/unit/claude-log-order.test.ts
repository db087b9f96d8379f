// plugins/claude/log-order.ts on Claude Code 2.1.197 logs captured against the fake LLM
// (test/fixtures/claude/README.md): a log whose first reply was written before its prompt
// comes out prompt first, as its parentUuid chain says; a log written in order comes out as
// written; a record whose parent never shows is not lost (a later prompt, or the end of the
// log, lets it out as written), and no record comes out twice.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ChainOrder } from '../../plugins/claude/log-order.js';
import { recordTime } from '../../plugins/claude/log.js';
import { fixtureRecords } from '../helpers/log-fixtures.js';

type Rec = Record<string, any>;

const all = (recs: Rec[], order = new ChainOrder(recordTime)) => [...recs.flatMap((r) => order.take(r) as Rec[]), ...(order.end() as Rec[])];
/** A record as type[/subtype] and the first 8 characters of its uuid. */
const name = (r: Rec) => `${r.type}${r.subtype ? `/${r.subtype}` : ''}${r.uuid ? ` ${String(r.uuid).slice(0, 8)}` : ''}`;

const s = suite('claude-log-order');

s('the captured log whose reply was written before its prompt: the prompt, its attachments, then the reply and its turn end', () => {
  const recs = fixtureRecords('claude', 'tui-reply-written-first.jsonl');
  // As the CLI wrote it.
  assert.equal(recs.map(name), [
    'ai-title',
    'last-prompt',
    'mode',
    'permission-mode',
    'assistant e38cbb8c',
    'system/turn_duration e246c63f',
    'file-history-snapshot',
    'user 6c8e2c28',
    'attachment 683439a0',
    'attachment ad04f81d',
  ]);
  const order = new ChainOrder(recordTime);
  // The reply waits for the attachment it follows; the turn end waits for the reply.
  const now = recs.map((r) => (order.take(r) as Rec[]).map(name));
  assert.equal(now.slice(4, 6), [[], []]);
  assert.equal(now[9], ['attachment ad04f81d', 'assistant e38cbb8c', 'system/turn_duration e246c63f']);
  assert.equal(order.end(), []);
  assert.equal(now.flat(), [
    'ai-title',
    'last-prompt',
    'mode',
    'permission-mode',
    'file-history-snapshot',
    'user 6c8e2c28',
    'attachment 683439a0',
    'attachment ad04f81d',
    'assistant e38cbb8c',
    'system/turn_duration e246c63f',
  ]);
});

s('logs written in order come out as written, record for record', () => {
  for (const file of ['tui-session.jsonl', 'headless-session.jsonl']) {
    const recs = fixtureRecords('claude', file);
    const order = new ChainOrder(recordTime);
    for (const r of recs) assert.equal(order.take(r), [r], `${file}: ${name(r)} at once`);
  }
});

s('a reply whose parent never shows waits until the next prompt, sent after it, lets it out first', () => {
  const recs = fixtureRecords('claude', 'tui-session.jsonl');
  // The attachment the first reply follows, never written.
  const reply = recs.findIndex((r) => r.type === 'assistant');
  const gone = recs.findIndex((r) => r.uuid === recs[reply]!.parentUuid);
  const withHole = recs.filter((_, i) => i !== gone);
  const order = new ChainOrder(recordTime);
  const out = withHole.flatMap((r) => {
    const got = order.take(r) as Rec[];
    // The second prompt (it follows the held turn end) lets the held records out before itself.
    if (r.type === 'user' && typeof r.message.content === 'string' && r.message.content.includes('FAKE_SHELL')) {
      assert.equal(got.map(name), [name(recs[reply]!), name(recs[reply + 1]!), name(r)]);
    }
    return got;
  });
  // Everything, once; the chain's records as written (bookkeeping without a parent never waits).
  assert.is(out.length, withHole.length);
  assert.ok(withHole.every((r) => out.filter((o) => o === r).length === 1));
  assert.equal(
    out.filter((r) => r.uuid),
    withHole.filter((r) => r.uuid),
  );
  assert.equal(order.end(), []);
});

s('an earlier prompt does not let a later reply out: it is what the reply waits for', () => {
  const recs = fixtureRecords('claude', 'tui-reply-written-first.jsonl');
  const order = new ChainOrder(recordTime);
  const prompt = recs.find((r) => r.type === 'user')!;
  for (const r of recs.slice(0, 7)) order.take(r);
  assert.equal(order.take(prompt), [prompt], 'the prompt alone');
});

s('the log ends while records wait: end() gives them as written, once; a record naming itself as parent does not wait', () => {
  const recs = fixtureRecords('claude', 'tui-reply-written-first.jsonl');
  const cut = recs.slice(0, 8); // up to the prompt: the attachments the reply follows never came
  const order = new ChainOrder(recordTime);
  const got = cut.flatMap((r) => order.take(r) as Rec[]);
  assert.equal(got.map(name), ['ai-title', 'last-prompt', 'mode', 'permission-mode', 'file-history-snapshot', 'user 6c8e2c28']);
  assert.equal((order.end() as Rec[]).map(name), ['assistant e38cbb8c', 'system/turn_duration e246c63f']);
  assert.equal(order.end(), []);
  assert.equal(all(cut).length, cut.length);

  const self = { ...recs[4]!, parentUuid: recs[4]!.uuid };
  assert.equal(new ChainOrder(recordTime).take(self), [self]);
});

s.run();
