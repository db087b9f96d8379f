// The tools used and the files touched in the range a brief covers, from the newest
// FILE_CALLS_MAX tool calls (fed newest first): which tools, how often, and the files their
// inputs name (edited, or only read/searched). Work per call is bounded (the keys an input
// has, the first part of a patch), so a brief over 100k entries costs what it shows. It
// infers files from tool inputs only; it never looks at the disk or runs git.

import { inputObject, isPlanTool, normalizeToolName } from './brief-plan.js';

const PATH_KEYS = [
  'file_path',
  'filePath',
  'path',
  'notebook_path',
  'notebookPath',
  'absolute_path',
  'absolutePath',
  'filename',
  'target_file',
  'targetFile',
  'file',
] as const;
const PATH_LIST_KEYS = ['paths', 'file_paths', 'filePaths', 'files'] as const;
const PATCH_FIELDS = ['input', 'patch', 'diff', 'command', 'cmd'] as const;
const KEY_ROLE: ReadonlyMap<string, 'path' | 'list'> = new Map<string, 'path' | 'list'>([
  ...PATH_KEYS.map((k) => [k, 'path'] as const),
  ...PATH_LIST_KEYS.map((k) => [k, 'list'] as const),
]);
const PATCH_SCAN_MAX = 20_000;
const LIST_SCAN_MAX = 50;
const MAX_PATH = 512;
/** A tool input given as JSON text is parsed only when it is small. */
const INPUT_PARSE_MAX = 8192;
/** Distinct files remembered per list; beyond it only "and possibly more" is known. */
const MAX_FILES = 1000;
/** Files are read from this many of the newest tool calls; older calls are only counted. */
const FILE_CALLS_MAX = 1000;

const EDITING = /write|edit|patch|replace|create|delete|remove|move|rename|insert/;
const PATCH_FILE = /^\*\*\* (?:Add File|Update File|Delete File|Move to): (.+)$/gm;

interface ToolKind {
  plan: boolean;
  editing: boolean;
  patch: boolean;
}

export class Activity {
  /** Tool calls in the range, and how many of the newest were looked at (tools and files). */
  totalCalls = 0;
  sampled = 0;
  private readonly tools = new Map<string, number>();
  private readonly kinds = new Map<string, ToolKind>();
  private readonly edited = new Set<string>();
  private readonly read = new Set<string>();
  editedOverflow = false;
  readOverflow = false;

  /** Whether more calls should be fed: only the newest FILE_CALLS_MAX are looked at. */
  get wantsMore(): boolean {
    return this.sampled < FILE_CALLS_MAX;
  }

  /** Notes a tool call (newest first): its tool, and the files its input names. */
  call(toolName: string, input: unknown): void {
    this.sampled++;
    this.tools.set(toolName, (this.tools.get(toolName) ?? 0) + 1);
    this.addFiles(this.kindOf(toolName), input);
  }

  /** Whether a tool name is a plan/todo tool (cached per name). */
  isPlan(toolName: string): boolean {
    return this.kindOf(toolName).plan;
  }

  private kindOf(toolName: string): ToolKind {
    let k = this.kinds.get(toolName);
    if (!k) {
      const norm = normalizeToolName(toolName);
      k = { plan: isPlanTool(toolName), editing: EDITING.test(norm), patch: norm.includes('patch') };
      this.kinds.set(toolName, k);
    }
    return k;
  }

  private addFiles(kind: ToolKind, input: unknown) {
    if (kind.plan) return;
    const obj = typeof input === 'string' && input.length > INPUT_PARSE_MAX ? undefined : inputObject(input);
    if (obj) {
      // Look at the keys the input has (usually two or three), not at every key it might have.
      for (const k in obj) {
        const role = KEY_ROLE.get(k);
        if (role === undefined || !Object.hasOwn(obj, k)) continue;
        const v = obj[k];
        if (role === 'path') this.notePath(v, kind.editing);
        else if (Array.isArray(v)) for (let i = 0; i < v.length && i < LIST_SCAN_MAX; i++) this.notePath(v[i], kind.editing);
      }
    }
    if (kind.patch) {
      this.notePatch(input);
      if (obj) for (const k of PATCH_FIELDS) this.notePatch(Array.isArray(obj[k]) ? (obj[k] as unknown[]).join('\n') : obj[k]);
    }
  }

  private notePath(p: unknown, editing: boolean) {
    if (typeof p !== 'string' || p === '' || p.length > MAX_PATH || p.includes('\n')) return;
    this.addFile(p, editing);
  }

  private notePatch(t: unknown) {
    if (typeof t !== 'string' || !t.includes('*** ')) return;
    for (const m of t.slice(0, PATCH_SCAN_MAX).matchAll(PATCH_FILE)) this.addFile(m[1]!.trim(), true);
  }

  private addFile(path: string, editing: boolean) {
    const set = editing ? this.edited : this.read;
    if (set.has(path)) return;
    if (!editing && this.edited.has(path)) return;
    if (set.size >= MAX_FILES) {
      if (editing) this.editedOverflow = true;
      else this.readOverflow = true;
      return;
    }
    set.add(path);
  }

  /** Tools by number of calls, then by name (code-unit order, not locale). */
  toolCounts(): [string, number][] {
    return [...this.tools].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  }

  /** Files edited, most recently touched first. */
  editedFiles(): string[] {
    return [...this.edited];
  }

  /** Whether older calls were left out of tools and files. */
  get partial(): boolean {
    return this.sampled < this.totalCalls;
  }

  /** Files only read or searched, most recent first (a file also edited is listed as edited). */
  readFiles(): string[] {
    return [...this.read].filter((p) => !this.edited.has(p));
  }
}
