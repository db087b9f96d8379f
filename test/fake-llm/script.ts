// What the fake LLM answers, decided once for every API: an echo of the last user text;
// scripted tool calls from markers in the user's own words in that text, never in a baton
// brief before them (ownText) ([[FAKE_SHELL: cmd]], [[FAKE_WRITE: path
// :: content]], [[FAKE_CALL: ToolName :: {json args}]] for any tool the client declared by
// that exact name, such as claude's AskUserQuestion), one per request, in order, then a final text once their results are
// back; an object built from the schema for structured-output requests; a short title
// for title-generation calls. Markers only ever become a call to a tool the client
// declared, so background calls (which declare none) can never run a command twice.
// [[FAKE_HANG]] and [[FAKE_ERROR: status]] make the reply hang or fail (see faultOf), read
// from the user's own words as well.
// It must never echo a marker back verbatim: a reply quoted into a later prompt (a
// handoff brief, a resumed history) would otherwise fire the tool again.
import type { ServerResponse } from 'node:http';
import { isAbsolute, join } from 'node:path';
import { fillSchema } from './schema-fill.js';
import { findCwd, lastUserIndex, ownText, type Conversation, type ToolDecl } from './conversation.js';

export type Decision =
  /** `fault`: how the reply misbehaves (faultOf), from the markers in the user's own words. */
  { kind: 'text'; text: string; fault?: Fault } | { kind: 'json'; text: string } | { kind: 'tool'; name: string; args: Record<string, unknown> };

export type Marker =
  | { kind: 'shell'; command: string }
  | { kind: 'write'; path: string; content: string }
  | { kind: 'call'; name: string; args: Record<string, unknown> };

const MARKER_RE = /\[\[FAKE_(SHELL|WRITE|CALL):\s*([\s\S]*?)\]\]/g;

export function parseMarkers(text: string): Marker[] {
  const out: Marker[] = [];
  for (const m of text.matchAll(MARKER_RE)) {
    const body = m[2]!.trim();
    if (m[1] === 'SHELL') {
      if (body) out.push({ kind: 'shell', command: body });
    } else if (m[1] === 'CALL') {
      const sep = body.indexOf('::');
      const name = (sep > 0 ? body.slice(0, sep) : body).trim();
      let args: unknown = {};
      try {
        args = sep > 0 ? JSON.parse(body.slice(sep + 2)) : {};
      } catch {
        continue;
      }
      if (name && typeof args === 'object' && args !== null && !Array.isArray(args)) out.push({ kind: 'call', name, args: args as Record<string, unknown> });
    } else {
      const sep = body.indexOf('::');
      if (sep > 0) out.push({ kind: 'write', path: body.slice(0, sep).trim(), content: body.slice(sep + 2).trim() });
    }
  }
  return out;
}

/** The text with markers defused, for echoing. */
export function defuse(text: string): string {
  return text.replace(/\[\[FAKE_/g, '[ [FAKE_');
}

const ECHO_HEAD = 1500;
const ECHO_TAIL = 2500;

export function echoText(userText: string): string {
  let t = userText;
  // A long prompt (a handoff brief) is echoed by its ends, where the new message sits.
  if (t.length > ECHO_HEAD + ECHO_TAIL + 20) t = `${t.slice(0, ECHO_HEAD)} […] ${t.slice(-ECHO_TAIL)}`;
  return `FAKE-LLM reply. You said: ${defuse(t)}`;
}

const TITLE_RE = /\b(title generator|generate a (short |concise )?title|thread title|conversation title|title for (this|the) (conversation|session))\b/i;

export function decide(conv: Conversation): Decision {
  if (conv.schema !== undefined) return { kind: 'json', text: JSON.stringify(fillSchema(conv.schema)) };
  if (conv.jsonMode) return { kind: 'json', text: '{}' };

  const last = lastUserIndex(conv.items);
  const userText = last >= 0 ? (conv.items[last] as { text: string }).text : '';
  if (conv.tools.length === 0 && TITLE_RE.test(conv.system)) return { kind: 'text', text: 'Fake conversation title' };

  const after = conv.items.slice(last + 1);
  const callsSoFar = after.filter((i) => i.kind === 'tool_call').length;
  // Only the user's own words act: a brief before them quotes markers that already ran.
  const own = ownText(userText);
  const markers = parseMarkers(own);
  if (callsSoFar < markers.length) {
    const call = toolCallFor(markers[callsSoFar]!, conv);
    if (call) return call;
  }
  const fault = faultIn(own);
  const withFault = (text: string): Decision => ({ kind: 'text', text, ...(fault ? { fault } : {}) });
  if (callsSoFar > 0) {
    const results = after.filter((i) => i.kind === 'tool_result') as { output: string }[];
    const lastOut = results.length ? results[results.length - 1]!.output : '(no result)';
    const shown = lastOut.length > 600 ? `${lastOut.slice(0, 600)}…` : lastOut;
    return withFault(`FAKE-LLM done after ${callsSoFar} tool call(s). Last result: ${defuse(shown)}\n${echoText(userText)}`);
  }
  return withFault(echoText(userText));
}

// Names the CLIs give their tools, best first.
const SHELL_TOOLS = ['Bash', 'exec_command', 'run_shell_command', 'shell', 'bash', 'shell_command', 'local_shell'];
const WRITE_TOOLS = ['Write', 'write_file', 'write', 'mcp__acp__Write', 'WriteFile', 'create_file'];

function findTool(tools: ToolDecl[], names: string[], fallback: RegExp): ToolDecl | undefined {
  for (const n of names) {
    const t = tools.find((x) => x.name === n);
    if (t) return t;
  }
  return tools.find((x) => fallback.test(x.name));
}

function toolCallFor(marker: Marker, conv: Conversation): Decision | undefined {
  if (marker.kind === 'call') return conv.tools.some((t) => t.name === marker.name) ? { kind: 'tool', name: marker.name, args: marker.args } : undefined;
  const shell = findTool(conv.tools, SHELL_TOOLS, /shell|bash/i);
  if (marker.kind === 'write') {
    const path = absolutePath(marker.path, conv);
    const write = findTool(conv.tools, WRITE_TOOLS, /write_?file|^write$/i);
    if (write) {
      const args = baseArgs(write);
      args[propName(write, ['file_path', 'path', 'filePath', 'absolute_path', 'filename'], 'file_path')] = path;
      args[propName(write, ['content', 'contents', 'text'], 'content')] = marker.content;
      return { kind: 'tool', name: write.name, args };
    }
    // codex has no write tool (it patches files); a shell command writes the file instead.
    if (!shell) return undefined;
    const cmd = `mkdir -p ${shq(dirOf(path))} && printf '%s' ${shq(marker.content)} > ${shq(path)}`;
    return shellCall(shell, cmd, conv);
  }
  return shell ? shellCall(shell, marker.command, conv) : undefined;
}

function shellCall(tool: ToolDecl, command: string, conv: Conversation): Decision {
  const args = baseArgs(tool);
  const key = propName(tool, ['command', 'cmd', 'script'], 'command');
  const prop = properties(tool)[key] as Record<string, unknown> | undefined;
  const isArray = String(prop?.type ?? '').toLowerCase() === 'array';
  args[key] = isArray ? ['bash', '-lc', command] : command;
  if ('description' in properties(tool)) args.description = 'Run a command for the fake LLM';
  // A timeout the schema requires would be filled with its minimum (1 ms): claude-code-acp's
  // Bash then kills the command before it has run. A minute, in the tool's own unit (ms).
  for (const k of ['timeout', 'timeout_ms']) if (k in args) args[k] = 60_000;
  const cwd = findCwd(conv);
  for (const k of ['workdir', 'dir_path', 'directory']) if (k in args && cwd) args[k] = cwd;
  return { kind: 'tool', name: tool.name, args };
}

function properties(tool: ToolDecl): Record<string, unknown> {
  const p = (tool.parameters ?? {}) as Record<string, unknown>;
  return (p.properties ?? {}) as Record<string, unknown>;
}

function propName(tool: ToolDecl, candidates: string[], fallback: string): string {
  const props = properties(tool);
  return candidates.find((c) => c in props) ?? fallback;
}

// Required arguments other than the ones we set (qwen's run_shell_command requires
// is_background), filled from the schema so the client's validation passes.
function baseArgs(tool: ToolDecl): Record<string, unknown> {
  const p = (tool.parameters ?? {}) as Record<string, unknown>;
  const required = Array.isArray(p.required) ? (p.required as string[]) : [];
  const props = properties(tool);
  const args: Record<string, unknown> = {};
  for (const r of required) if (r in props) args[r] = fillSchema(props[r], p);
  return args;
}

function absolutePath(path: string, conv: Conversation): string {
  if (isAbsolute(path)) return path;
  const cwd = findCwd(conv);
  return cwd ? join(cwd, path) : path;
}

function dirOf(path: string): string {
  const i = path.lastIndexOf('/');
  return i <= 0 ? (i === 0 ? '/' : '.') : path.slice(0, i);
}

function shq(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * Test controls that make the model misbehave, decided from the user's own words in the last
 * user text (ownText): `[[FAKE_HANG]]` never answers (the connection stays open until the
 * client gives up or the server closes); `[[FAKE_HOLD: NAME]]` answers once the test calls
 * release(NAME) (a turn that is mid-way for as long as the test needs); `[[FAKE_ERROR: 503]]`
 * answers with that HTTP status and an error body. Only a text reply to the request whose last
 * user text carries it misbehaves; background calls (titles, schemas) are never affected, and
 * neither is a new agent whose brief quotes the marker.
 */
export type Fault = { kind: 'hang' } | { kind: 'hold'; name: string } | { kind: 'error'; status: number };

const FAULT_RE = /\[\[FAKE_(HANG|ERROR|HOLD)(?::\s*([\w-]+))?\]\]/;

function faultIn(text: string): Fault | undefined {
  const m = FAULT_RE.exec(text);
  if (!m) return undefined;
  if (m[1] === 'HANG') return { kind: 'hang' };
  if (m[1] === 'HOLD') return { kind: 'hold', name: m[2] ?? '' };
  return { kind: 'error', status: Number(m[2] ?? 500) };
}

export function faultOf(decision: Decision | undefined): Fault | undefined {
  return decision?.kind === 'text' ? decision.fault : undefined;
}

/** What an API module will answer: logged first, then sent, so a test in another
 * process that got the reply always finds the request in the log. */
export interface Served {
  model: string;
  stream: boolean;
  decision?: Decision;
  send(res: ServerResponse): void;
}
