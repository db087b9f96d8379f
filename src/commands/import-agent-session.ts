// `baton transcript import --from NAME SESSION`: a conversation begun in an agent CLI on its
// own becomes a baton conversation, so another agent can continue it. The CLI's own log is
// read through its driver; the new conversation's segment is that CLI's, with its native
// session and a cursor at the end, so continuing with the same CLI resumes natively.

import { userAuthor } from '../conversation/user.js';
import { BatonError, EXIT } from '../errors.js';
import { createConversation, resolveHome, titleFrom } from '../transcript/store.js';
import { agentCatalog } from './agent-catalog.js';
import type { Io } from './io.js';

export async function importAgentSession(
  io: Io,
  opts: { agent: string; session: string; title?: string },
): Promise<{ id: string; entries: number; skipped: number }> {
  const { registry } = await agentCatalog(io);
  try {
    const driver = registry.get(opts.agent);
    if (!driver.readSession) {
      throw new BatonError(`${driver.title} (${driver.name}) cannot import its sessions`, EXIT.badInput, 'import a baton export instead: --from jsonl FILE');
    }
    const found = await registry.detect(opts.agent);
    const imported = await driver.readSession({ session: opts.session, cwd: io.cwd, env: io.env });
    if (!found.installed && !imported.events.length) {
      throw new BatonError(`${driver.title} is not installed and its log has nothing for ${opts.session}`, EXIT.agentNotInstalled, found.installHint);
    }
    const firstUser = imported.events.find((e) => e.type === 'user_text');
    const conv = await createConversation(resolveHome(io.env), {
      cwd: imported.cwd ?? io.cwd,
      title: opts.title ?? (firstUser && firstUser.type === 'user_text' ? titleFrom(firstUser.text) : `${driver.title} session ${opts.session}`),
      user: userAuthor(io.env),
    });
    try {
      const t = conv.transcript;
      t.startSegment({ harness: driver.name, model: imported.model ?? driver.defaultModel ?? 'default', switchId: `import-${imported.agentSession}` });
      t.apply({ type: 'session', agentSession: imported.agentSession });
      for (const e of imported.events) t.apply(e);
      t.flush();
      t.apply({
        type: 'notice',
        text: `Imported from ${driver.title}'s own session ${imported.agentSession}${imported.logPath ? ` (${imported.logPath})` : ''}.`,
      });
      t.confirmCursor(driver.name, imported.agentSession, t.lastSeq);
      await conv.meta.update({ lastAgent: { harness: driver.name, model: imported.model ?? 'default' } });
      return { id: conv.id, entries: t.lastSeq, skipped: imported.skipped };
    } finally {
      await conv.close();
    }
  } finally {
    await registry.dispose();
  }
}
