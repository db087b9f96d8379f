// How a test runs each of the five real agent CLIs on its own, non-interactively (without
// baton's drivers): the argv of a turn, a resume and a turn allowed to use tools, and how
// its JSON output gives the reply and the session id; which API it speaks to the fake LLM
// and where it keeps its sessions under HOME. For runCli (run-cli.ts) in the real suites.
// It must never hold a shell string: argv only.
import type { ApiName } from '../fake-llm/server.js';
import { firstJson, jsonLines, type CliRun } from './run-cli.js';

export type RealCliName = 'claude' | 'codex' | 'gemini' | 'qwen' | 'opencode';

export interface CliRunSpec {
  name: RealCliName;
  turn(prompt: string): string[];
  resume(session: string, prompt: string): string[];
  /** A turn allowed to run shell and write tools without asking. */
  tools(prompt: string): string[];
  parse(r: CliRun): { reply: string; session: string };
  /** The API it speaks to the fake LLM. */
  api: ApiName;
  /** Where it keeps its sessions, relative to HOME. */
  store: string;
}

const textOf = (events: Record<string, any>[], keep: (e: Record<string, any>) => boolean, text: (e: Record<string, any>) => unknown) =>
  events
    .filter(keep)
    .map((e) => String(text(e)))
    .join('\n');

export const CLI_RUNS: readonly CliRunSpec[] = [
  {
    name: 'claude',
    turn: (p) => ['-p', p, '--output-format', 'json'],
    resume: (s, p) => ['-p', '--resume', s, p, '--output-format', 'json'],
    tools: (p) => ['-p', p, '--output-format', 'json', '--permission-mode', 'bypassPermissions'],
    parse: (r) => {
      const j = firstJson(r.stdout);
      return { reply: String(j.result ?? ''), session: String(j.session_id ?? '') };
    },
    api: 'anthropic',
    store: '.claude/projects',
  },
  {
    name: 'codex',
    turn: (p) => ['exec', '--json', '--skip-git-repo-check', p],
    resume: (s, p) => ['exec', '--json', '--skip-git-repo-check', 'resume', s, p],
    tools: (p) => ['exec', '--json', '--skip-git-repo-check', '--dangerously-bypass-approvals-and-sandbox', p],
    parse: (r) => {
      const events = jsonLines(r.stdout);
      const reply = textOf(
        events,
        (e) => e.type === 'item.completed' && e.item?.type === 'agent_message',
        (e) => e.item.text,
      );
      return { reply, session: String(events.find((e) => e.type === 'thread.started')?.thread_id ?? '') };
    },
    api: 'openai-responses',
    store: '.codex/sessions',
  },
  {
    name: 'gemini',
    turn: (p) => ['-p', p, '-o', 'json'],
    resume: (s, p) => ['--resume', s, '-p', p, '-o', 'json'],
    tools: (p) => ['--yolo', '-p', p, '-o', 'json'],
    parse: (r) => {
      const j = firstJson(r.stdout);
      return { reply: String(j.response ?? ''), session: String(j.session_id ?? '') };
    },
    api: 'gemini',
    store: '.gemini/tmp',
  },
  {
    name: 'qwen',
    turn: (p) => ['--auth-type', 'openai', '-p', p, '--output-format', 'json'],
    resume: (s, p) => ['--auth-type', 'openai', '--resume', s, '-p', p, '--output-format', 'json'],
    tools: (p) => ['--auth-type', 'openai', '--yolo', '-p', p, '--output-format', 'json'],
    parse: (r) => {
      const j = firstJson(r.stdout);
      const result = (Array.isArray(j) ? j : [j]).find((e: Record<string, unknown>) => e.type === 'result') ?? {};
      return { reply: String(result.result ?? ''), session: String(result.session_id ?? '') };
    },
    api: 'openai-chat',
    store: '.qwen/projects',
  },
  {
    name: 'opencode',
    // `opencode run` wraps a multi-word prompt in literal quotes (agent-clis.md gotcha 10).
    turn: (p) => ['run', '--format', 'json', p],
    resume: (s, p) => ['run', '--format', 'json', '--session', s, p],
    tools: (p) => ['run', '--format', 'json', p],
    parse: (r) => {
      const events = jsonLines(r.stdout);
      const reply = textOf(
        events,
        (e) => e.type === 'text' && typeof e.part?.text === 'string',
        (e) => e.part.text,
      );
      return { reply, session: String(events.find((e) => typeof e.sessionID === 'string')?.sessionID ?? '') };
    },
    api: 'openai-chat',
    store: '.local/share/opencode',
  },
];

/**
 * The CLIs this run is about: `npm run test:real -- claude` sets BATON_TEST_CLIS, and the
 * suites that loop over every CLI keep only those (all of them when it is unset).
 */
export function selectedRuns(): readonly CliRunSpec[] {
  const only = process.env.BATON_TEST_CLIS?.split(',').filter(Boolean);
  return only?.length ? CLI_RUNS.filter((r) => only.includes(r.name)) : CLI_RUNS;
}

export function cliRun(name: RealCliName): CliRunSpec {
  return CLI_RUNS.find((s) => s.name === name)!;
}
