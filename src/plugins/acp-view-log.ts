// The session log of baton's ACP view: what a view tab's program (`baton acp-view`) keeps of
// its session, one JSON line per record, in `$BATON_HOME/acp-views/<view id>.jsonl` (0600, in
// a 0700 dir). A line holds a view record (`rec`: what the screen draws, so a reopened tab
// shows its history from baton's own log, never from the agent's replay), a normalized
// transcript event (`ev`: what the tab's ingest hands to the conversation, exactly as the
// PTY-hosted CLIs' logs are followed), the agent's own session id (`acp`, for
// session/load when the tab is reopened; `via`, how that session was opened: new, or an
// earlier one loaded or resumed), how the session's model can be changed (`models`, at each
// session open) and each model change asked of the view (`modelSet`, which the view driver
// waits for). Every line is stamped. Writing is append-only.

import { appendFileSync, closeSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensurePrivateDir, openPrivate, resolveHome } from '../transcript/store-home.js';
import type { Ingestor, IngestOptions, TranscriptEvent } from './api.js';
import type { SessionOpening } from './acp-session.js';
import { tailJsonl } from './log-tail.js';

/** A view id (`view-` and a UUID): what baton records as a view tab's native session. */
const VIEW_ID = /^view-[0-9a-f-]{36}$/;

export const isViewId = (id: string) => VIEW_ID.test(id);

export function viewLogPath(env: NodeJS.ProcessEnv, viewId: string): string {
  if (!isViewId(viewId)) throw new Error(`not a view id: ${viewId}`);
  return join(resolveHome(env), 'acp-views', `${viewId}.jsonl`);
}

/** How the running session's model can be changed (acp-models.ts ModelControl's `via`, or none), and the model it runs. */
export interface ViewModels {
  via: 'config' | 'set_model' | 'none';
  current?: string;
}

/** The outcome of one model change asked of the view (`nonce` is the asker's). */
export interface ViewModelSet {
  nonce: string;
  model: string;
  ok: boolean;
  why?: string;
}

export interface ViewLine {
  at: string;
  rec?: unknown;
  ev?: TranscriptEvent;
  acp?: string;
  via?: SessionOpening;
  models?: ViewModels;
  modelSet?: ViewModelSet;
}

/**
 * The bytes that ask a running view to change its model: an APC string (ESC _ … ESC \),
 * which no key produces, typed into the view's terminal by the view driver (changeModelInTab).
 */
const MODEL_REQUEST = 'baton-model';

export function modelRequest(nonce: string, model: string): string {
  if (/[\x00-\x1f\x7f;]/.test(nonce) || /[\x00-\x1f\x7f]/.test(model)) throw new Error('a model name holds no control characters');
  return `\x1b_${MODEL_REQUEST};${nonce};${model}\x1b\\`;
}

/** The model change an APC string's text asks for, if it is one. */
export function parseModelRequest(apc: string): { nonce: string; model: string } | undefined {
  const m = /^baton-model;([^;]+);(.+)$/s.exec(apc);
  return m ? { nonce: m[1]!, model: m[2]! } : undefined;
}

export class ViewLogWriter {
  constructor(readonly path: string) {
    ensurePrivateDir(join(path, '..'));
    closeSync(openPrivate(path, 'a'));
  }

  private append(line: Omit<ViewLine, 'at'>): void {
    appendFileSync(this.path, `${JSON.stringify({ at: new Date().toISOString(), ...line })}\n`);
  }

  record(rec: unknown): void {
    this.append({ rec });
  }

  event(ev: TranscriptEvent): void {
    this.append({ ev });
  }

  agentSession(id: string, via?: SessionOpening): void {
    this.append({ acp: id, ...(via ? { via } : {}) });
  }

  models(models: ViewModels): void {
    this.append({ models });
  }

  modelSet(modelSet: ViewModelSet): void {
    this.append({ modelSet });
  }
}

/** Every line of a view's log (a torn or foreign line skipped); none when it does not exist. */
export function readViewLog(path: string): ViewLine[] {
  if (!existsSync(path)) return [];
  const out: ViewLine[] = [];
  for (const l of readFileSync(path, 'utf8').split('\n')) {
    if (!l) continue;
    try {
      const v = JSON.parse(l) as ViewLine;
      if (v && typeof v.at === 'string') out.push(v);
    } catch {
      // A line torn by a crash mid-write: the rest is still the view's.
    }
  }
  return out;
}

/** The agent's own session the view ran last, if its log says. */
export function lastAgentSession(lines: readonly ViewLine[]): string | undefined {
  for (let i = lines.length - 1; i >= 0; i--) if (lines[i]!.acp) return lines[i]!.acp;
  return undefined;
}

/** How the session the view runs now can change its model, if its log says. */
export function lastModels(lines: readonly ViewLine[]): ViewModels | undefined {
  for (let i = lines.length - 1; i >= 0; i--) if (lines[i]!.models) return lines[i]!.models;
  return undefined;
}

/** Follows a view's log (`opts.agentSession` is the view id): its events from `since` on. */
export async function ingestViewLog(opts: IngestOptions): Promise<Ingestor> {
  const viewId = opts.agentSession;
  if (!viewId || !isViewId(viewId)) throw new Error('a view tab is always launched with its view id');
  const path = viewLogPath(opts.env, viewId);
  const since = opts.since.getTime();
  let skipped = 0;
  // The file exists from the moment the view starts; it may not yet when the ingest does.
  if (!existsSync(path)) new ViewLogWriter(path);
  const tail = await tailJsonl(path, {
    onRecord(r) {
      const v = r as ViewLine;
      if (!v || typeof v.at !== 'string' || !v.ev) return;
      if (Date.parse(v.at) < since) return;
      opts.onEvent(v.ev);
    },
    onInvalid: () => skipped++,
  });
  return {
    agentSession: viewId,
    get skipped() {
      return skipped;
    },
    dispose: () => tail.dispose(),
  };
}
