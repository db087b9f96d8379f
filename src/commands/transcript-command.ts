// `baton transcript list | show | search | export | import | prune`: reading and moving
// canonical transcripts. Readers never take the writer lock; nothing here writes to an
// existing conversation. Everything shown passes through redaction (a log an older baton
// wrote may hold secrets raw: render-text.ts, and here for search and the JSONL export),
// the sanitizer, and then main()'s terminalSafe door; JSON goes out through jsonText
// (lossless).

import type { Argv } from './yargs.js';
import { badInput } from '../errors.js';
import { wholeNumberArg } from './number-arg.js';
import { renderEntries, renderMarkdown, authorLabel } from '../transcript/render-text.js';
import { redactEntry } from '../transcript/redact.js';
import { stripControls } from '../transcript/sanitize.js';
import { formatProblem, importJsonl, listConversations, prune, readConversation, resolveHome, retentionDays, type LoadProblem } from '../transcript/store.js';
import { FORMAT, FORMAT_VERSION } from '../transcript/store.js';
import type { Entry } from '../transcript/types.js';
import { jsonText, type Io } from './io.js';
import { importAgentSession } from './import-agent-session.js';
import { deletePrunedCheckpoints } from '../conversation/prune-checkpoints.js';

function reportProblems(io: Io, id: string, problems: readonly LoadProblem[]) {
  for (const p of problems) io.err(`baton: warning: conversation ${id}: ${formatProblem(p)}\n`);
}

/** The raw JSON of an entry as stored: unknown kinds go out exactly as they came in. */
function storedJson(e: Entry): string {
  return jsonText(e.kind === 'unknown' ? e.raw : e);
}

function snippet(text: string, at: number, len: number, width = 80): string {
  const start = Math.max(0, at - Math.floor((width - len) / 2));
  const flat = stripControls(text.slice(start, start + width)).replace(/\s+/g, ' ');
  return `${start > 0 ? '…' : ''}${flat}${start + width < text.length ? '…' : ''}`;
}

function searchableText(e: Entry): string {
  switch (e.kind) {
    case 'user_message':
    case 'agent_text':
    case 'reasoning':
    case 'notice':
    case 'error':
      return e.text;
    case 'tool_call':
      return `${e.toolName} ${JSON.stringify(e.input) ?? ''}`;
    case 'tool_result':
      return `${e.toolName} ${e.output}`;
    default:
      return '';
  }
}

const pad = (s: string, n: number) => (s.length >= n ? s : s + ' '.repeat(n - s.length));

export function registerTranscript(y: Argv, io: Io): Argv {
  return y.command('transcript', 'read, search, export and import conversations', (t) =>
    t
      .command('list', 'conversations, most recent first', {}, () => listCommand(io))
      .command(
        'show <id>',
        'the conversation as text: authors, tool calls folded, handoff dividers',
        (c) =>
          c
            .positional('id', { type: 'string', demandOption: true, describe: 'conversation id (or a unique prefix)' })
            .option('expand', { type: 'boolean', default: false, describe: 'show tool inputs and outputs in full' })
            .option('all', { type: 'boolean', default: false, describe: 'include entries hidden by a reset' }),
        (a) => showCommand(io, a),
      )
      .command(
        'search <query>',
        'case-insensitive search across every conversation',
        (c) => c.positional('query', { type: 'string', demandOption: true }),
        (a) => searchCommand(io, a.query),
      )
      .command(
        'export <id>',
        'the whole conversation on stdout',
        (c) =>
          c.positional('id', { type: 'string', demandOption: true }).option('format', {
            choices: ['jsonl', 'md'] as const,
            default: 'jsonl' as const,
            describe: "jsonl: baton's own format (importable); md: a readable document",
          }),
        (a) => exportCommand(io, a),
      )
      .command(
        'import <source>',
        "start a conversation from a baton JSONL export (--from jsonl FILE) or from an agent CLI's own session (--from NAME SESSION)",
        (c) =>
          c
            .positional('source', { type: 'string', demandOption: true, describe: "a file (jsonl) or the CLI's session id" })
            .option('from', { type: 'string', demandOption: true, describe: '`jsonl`, or an agent name (claude, codex, ...)' })
            .option('title', { type: 'string' }),
        (a) => importCommand(io, a),
      )
      .command(
        'prune',
        'delete conversations untouched for longer than the retention (default 90 days)',
        (c) =>
          c
            .option('older-than', { type: 'string', describe: 'days; default BATON_RETENTION_DAYS or 90' })
            .option('dry-run', { type: 'boolean', default: false }),
        (a) => pruneCommand(io, a),
      )
      .demandCommand(1, 'say which: list, show, search, export, import or prune'),
  );
}

async function listCommand(io: Io): Promise<void> {
  const rows = await listConversations(resolveHome(io.env));
  if (!rows.length) {
    io.out('no conversations yet\n');
    return;
  }
  for (const r of rows) {
    const agent = r.lastAgent ? `${r.lastAgent.harness}/${r.lastAgent.model}` : '-';
    io.out(
      `${pad(r.id, 14)} ${r.updated.slice(0, 16).replace('T', ' ')}  ${pad(String(r.entries), 6)} ${pad(agent, 22)} ${stripControls(r.title)}${r.open ? '  (open)' : ''}\n`,
    );
  }
}

async function showCommand(io: Io, a: { id: string; expand: boolean; all: boolean }): Promise<void> {
  const conv = await readConversation(resolveHome(io.env), a.id);
  reportProblems(io, conv.id, conv.problems);
  const entries = a.all ? conv.transcript.entries : conv.transcript.visible();
  io.out(`# ${stripControls(conv.meta.data.title)}  (${conv.id}, ${stripControls(conv.meta.data.cwd)})\n`);
  io.out(renderEntries(entries, { expandTools: a.expand }));
  await conv.close();
}

async function searchCommand(io: Io, query: string): Promise<void> {
  const home = resolveHome(io.env);
  const needle = query.toLowerCase();
  if (!needle.trim()) throw badInput('the search query is empty', 'give some text to look for');
  let hits = 0;
  for (const row of await listConversations(home)) {
    const conv = await readConversation(home, row.id);
    for (const e of conv.transcript.entries) {
      // Searched redacted: a query for part of a secret finds nothing to print.
      const text = searchableText(redactEntry(e));
      const at = text.toLowerCase().indexOf(needle);
      if (at < 0) continue;
      hits++;
      io.out(`${row.id}  #${e.seq}  ${authorLabel(e.author)}  ${snippet(text, at, needle.length)}\n`);
    }
    await conv.close();
  }
  if (!hits) io.err(`no entry contains "${stripControls(query)}"\n`);
}

async function exportCommand(io: Io, a: { id: string; format: 'jsonl' | 'md' }): Promise<void> {
  const conv = await readConversation(resolveHome(io.env), a.id);
  reportProblems(io, conv.id, conv.problems);
  if (a.format === 'md') {
    io.out(renderMarkdown(conv.transcript.visible(), conv.meta.data.title));
  } else {
    const header = { format: FORMAT, version: FORMAT_VERSION, conversation: conv.id, title: conv.meta.data.title, created: conv.meta.data.created };
    io.out(jsonText(header) + '\n');
    for (const e of conv.transcript.entries) io.out(storedJson(redactEntry(e)) + '\n');
  }
  await conv.close();
}

async function importCommand(io: Io, a: { source: string; from: string; title?: string }): Promise<void> {
  if (a.from === 'jsonl') {
    const r = await importJsonl(resolveHome(io.env), a.source, { cwd: io.cwd, title: a.title });
    reportProblems(io, r.id, r.problems);
    io.out(`imported ${r.entries} entries as conversation ${r.id}\n`);
    return;
  }
  const r = await importAgentSession(io, { agent: a.from, session: a.source, title: a.title });
  if (r.skipped) io.err(`baton: warning: ${r.skipped} records of ${a.from}'s log had shapes this driver does not know; they were skipped\n`);
  io.out(`imported ${r.entries} entries from ${a.from} session ${stripControls(a.source)} as conversation ${r.id}\n`);
}

async function pruneCommand(io: Io, a: { olderThan?: string; dryRun: boolean }): Promise<void> {
  const days = a.olderThan !== undefined ? wholeNumberArg(a.olderThan, '--older-than', 'days, at least 1') : retentionDays(io.env);
  if (days === undefined) {
    io.out('retention is off (BATON_RETENTION_DAYS=never); give --older-than DAYS to prune anyway\n');
    return;
  }
  if (!Number.isInteger(days) || days < 1) throw badInput(`--older-than must be a whole number of days >= 1, got ${days}`);
  const r = await prune(resolveHome(io.env), { olderThanDays: days, dryRun: a.dryRun });
  if (!a.dryRun && r.pruned.length) await deletePrunedCheckpoints(r.pruned, (w) => io.err(`baton: warning: ${w}\n`));
  for (const p of r.pruned) io.out(`${a.dryRun ? 'would prune' : 'pruned'} ${p.id}  ${p.updated.slice(0, 10)}  ${stripControls(p.title)}\n`);
  for (const id of r.skippedOpen) io.out(`kept ${id}: open in a running baton\n`);
  if (!r.pruned.length) io.out(`nothing older than ${days} days\n`);
}
