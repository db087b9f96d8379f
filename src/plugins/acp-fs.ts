// The client file system offered to ACP agents (fs/read_text_file with line/limit,
// fs/write_text_file). Paths must be absolute, as the protocol says. A missing file is the
// protocol's "resource not found" (-32002) so agents can tell it from a failure. Files are
// written the way an editor saves them, creating parent directories. Given a root (a tab's
// session directory), a path outside it is refused, symbolic links followed as far as they
// exist, so a link inside the directory cannot lead out of it. Only the agent's own
// requests reach here; nothing is read or written on baton's initiative.

import { realpathSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { RequestError } from './acp-sdk.js';

function absolute(path: string): string {
  if (!isAbsolute(path)) throw RequestError.invalidParams({ path }, `path must be absolute: ${path}`);
  return path;
}

/** The real path of `path`'s longest existing ancestor, with the rest appended as it is. */
function realish(path: string): string {
  let head = resolve(path);
  const rest: string[] = [];
  for (;;) {
    try {
      return resolve(realpathSync(head), ...rest.reverse());
    } catch {
      const up = dirname(head);
      if (up === head) return resolve(path);
      rest.push(head.slice(up.length + (up.endsWith(sep) ? 0 : 1)));
      head = up;
    }
  }
}

/** Whether `path` lies within `root` once links are followed. */
export function within(root: string, path: string): boolean {
  const rel = relative(realish(root), realish(path));
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/** Refuses a path outside `root` (when there is one) with the protocol's invalid-params error. */
export function confined(path: string, root: string | undefined): string {
  absolute(path);
  if (root && !within(root, path)) throw RequestError.invalidParams({ path }, `${path} is outside the session's directory ${root}; baton refused it`);
  return path;
}

/** `line` is 1-based; `limit` counts lines from there. */
export async function readTextFile(path: string, line?: number | null, limit?: number | null, root?: string): Promise<string> {
  let text: string;
  try {
    text = await readFile(confined(path, root), 'utf8');
  } catch (err) {
    if (err instanceof RequestError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw RequestError.resourceNotFound(path);
    throw RequestError.internalError({ path, code }, `cannot read ${path}: ${code ?? String(err)}`);
  }
  if ((line === undefined || line === null) && (limit === undefined || limit === null)) return text;
  const lines = text.split('\n');
  const start = Math.max(0, (line ?? 1) - 1);
  const end = limit === undefined || limit === null ? lines.length : start + Math.max(0, limit);
  return lines.slice(start, end).join('\n');
}

export async function writeTextFile(path: string, content: string, root?: string): Promise<void> {
  confined(path, root);
  try {
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, content, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw RequestError.internalError({ path, code }, `cannot write ${path}: ${code ?? String(err)}`);
  }
}
