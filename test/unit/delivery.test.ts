// How a message is typed into a CLI (src/conversation/delivery.ts, issue 13 item 5), through a
// TabSession and the in-memory CLI of test/helpers/fake-agent.ts: for a driver whose CLI takes
// a bracketed paste and its Enter in one write (capabilities.enterWithPaste: codex, opencode),
// one write; for any other, the paste, then Enter alone once the screen shows it. Either way
// the message is confirmed in the CLI's log, and an Enter the CLI lost is pressed once more.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { TabSession } from '../../src/conversation/tab-session.js';
import type { FakeTerminal } from '../helpers/fake-agent.js';
import { fakeSessions } from '../helpers/fake-session.js';

const s = suite('delivery');
const start = fakeSessions(s, 'baton-delivery-');

async function started(enterWithPaste: boolean): Promise<{ term: FakeTerminal; session: TabSession; users: () => string[] }> {
  const { term, session, conv } = await start({ capabilities: { enterWithPaste } });
  const users = () => conv.transcript.entries.flatMap((e) => (e.kind === 'user_message' ? [e.text] : []));
  return { term, session, users };
}

s('a CLI that takes them so gets the paste and its Enter in one write, nothing else', async () => {
  const { term, session, users } = await started(true);
  assert.is((await session.send('line one\nline two')).kind, 'delivered');
  assert.equal(term.writes, ['\x1b[200~line one\rline two\x1b[201~\r']);
  assert.equal(users(), ['line one\nline two']);
});

s('any other CLI gets the paste, then Enter alone', async () => {
  const { term, session } = await started(false);
  assert.is((await session.send('hello')).kind, 'delivered');
  assert.equal(term.writes, ['\x1b[200~hello\x1b[201~', '\r']);
});

s("an Enter in the paste's write that the CLI lost is pressed once more, alone; the message is recorded once", async () => {
  const { term, session, users } = await started(true);
  // The CLI drops the first Enter (the text stays in its box), then takes the next.
  let dropped = false;
  term.onEnter = () => {
    if (dropped) term.take();
    dropped = true;
  };
  assert.is((await session.send('once')).kind, 'delivered');
  assert.equal(term.writes, ['\x1b[200~once\x1b[201~\r', '\r']);
  assert.equal(users(), ['once']);
});

s.run();
