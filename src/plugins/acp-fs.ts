// The client file system offered to ACP agents (fs/read_text_file with line/limit,
// fs/write_text_file). Paths must be absolute, as the protocol says. A missing file is the
// protocol's "resource not found" (-32002) so agents can tell it from a failure. Files are
// written the way an editor saves them, creating parent directories. Only the agent's own
// requests reach here; nothing is read or written on baton's initiative.

import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute } from 'node:path';
import { RequestError } from './acp-sdk.js';

function absolute(path: string): string {
  if (!isAbsolute(path)) throw RequestError.invalidParams({ path }, `path must be absolute: ${path}`);
  return path;
}

/** `line` is 1-based; `limit` counts lines from there. */
export async function readTextFile(path: string, line?: number | null, limit?: number | null): Promise<string> {
  let text: string;
  try {
    text = await readFile(absolute(path), 'utf8');
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

export async function writeTextFile(path: string, content: string): Promise<void> {
  absolute(path);
  try {
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, content, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw RequestError.internalError({ path, code }, `cannot write ${path}: ${code ?? String(err)}`);
  }
}
