// A model change inside opencode's running TUI session (changeModelInTab), in place of
// stopping it and relaunching `opencode --session ID --model M`. opencode 1.18 chooses the
// model per message, from its TUI's current model; its model dialog (ctrl+x m, "Select
// model") sets that. The dialog searches models by title and provider name, not by id, so the
// title comes from opencode's own ACP answer (the models list, cached per build: its name is
// "<provider name>/<title>"). Typed: ctrl+x m, the title (letters, digits, spaces, . _ - only);
// then the row whose title and provider are the model's is found on the screen, the selection
// (on the first row after a search) moved down to it, and Enter. The confirmation is opencode's
// own file: choosing a model puts it first in the recent list of `model.json` in its state
// dir. That list is also what a new session starts on when no config names a model (the
// user's default), so model.json is put back as it was, which leaves the running session on
// the new model (seen by hand: the next request names it). Anything else (no such model, a
// dialog that does not open, a row not on screen, no model.json answer in time) is
// `unsupported`: the dialog is closed, model.json put back, and the switch relaunches the CLI
// on its session as before (which, for a session with messages, keeps the old model: see
// launch.ts). Checked with opencode 1.18.33 against the fake LLM.

import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { acpModelList, type ModelChangeOptions, type ModelChangeResult } from '../../src/plugins/kit.js';
import { opencodeAcpDecl } from './headless.js';
import { opencodeStateDir } from './home.js';
import { type ModelDialog, readModelDialog, rowIs, searchText } from './model-dialog.js';

/** opencode's model ids: `<provider>/<model>`, nothing that could mean more. */
const SAFE_MODEL = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}\/[A-Za-z0-9][A-Za-z0-9._:@/-]{0,199}$/;
const LEADER = '\x18';
const DOWN = '\x1b[B';
const POLL_MS = 100;
/** How long the screen must stay the same before the dialog's rows are taken as settled (its selection moves after a search on a timer). */
const SETTLE_MS = 300;
/** Between keys, so the TUI reads each as its own. */
const KEY_MS = 80;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** When model.json was last written (0: absent). */
function writtenAt(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

/** The first entry of model.json's recent list, as `<provider>/<model>`. */
function recentFirst(path: string): string | undefined {
  try {
    const data = JSON.parse(readFileSync(path, 'utf8')) as { recent?: { providerID?: unknown; modelID?: unknown }[] };
    const first = data.recent?.[0];
    return typeof first?.providerID === 'string' && typeof first.modelID === 'string' ? `${first.providerID}/${first.modelID}` : undefined;
  } catch {
    return undefined;
  }
}

/** Puts model.json back to the bytes it had (absent: removed). */
function restore(path: string, before: Buffer | undefined): void {
  try {
    if (before === undefined) rmSync(path, { force: true });
    else if (!existsSync(path) || !readFileSync(path).equals(before)) writeFileSync(path, before);
  } catch {
    // Left as opencode wrote it: the change itself is made or undone by the relaunch.
  }
}

/** Polls `read` until it gives a value, for at most `ms`; undefined if it never does. */
async function waitFor<T>(ms: number, read: () => T | undefined): Promise<T | undefined> {
  const end = Date.now() + ms;
  for (;;) {
    const got = read();
    if (got !== undefined) return got;
    if (Date.now() >= end) return undefined;
    await sleep(POLL_MS);
  }
}

/** The dialog once its search shows `typed` and its rows have stayed the same for SETTLE_MS. */
async function settledDialog(opts: ModelChangeOptions, typed: string, ms: number): Promise<ModelDialog | undefined> {
  let last = '';
  let since = Date.now();
  return waitFor(ms, () => {
    const dialog = readModelDialog(opts.screen());
    if (!dialog || dialog.search !== typed) return undefined;
    const now = JSON.stringify(dialog.rows);
    if (now !== last) {
      last = now;
      since = Date.now();
      return undefined;
    }
    return Date.now() - since >= SETTLE_MS ? dialog : undefined;
  });
}

/** opencode's title for `model` from its ACP answer ("<provider name>/<title>"), or undefined when it lists no such model. */
async function acpName(opts: ModelChangeOptions): Promise<string | undefined> {
  const where = { env: opts.env, cwd: opts.cwd ?? opts.env.PWD ?? process.cwd(), ...(opts.account ? { account: opts.account } : {}) };
  const list = await acpModelList(opencodeAcpDecl({ ...where, yes: false }).decl, where);
  const found = list.models.find((m) => m.id === opts.model);
  return found?.name?.includes('/') ? found.name : undefined;
}

export async function changeOpencodeModel(opts: ModelChangeOptions): Promise<ModelChangeResult> {
  if (!SAFE_MODEL.test(opts.model)) return { kind: 'unsupported', why: `model name ${JSON.stringify(opts.model)} is not one opencode's dialog is driven to` };
  const start = Date.now();
  const left = () => Math.max(0, opts.timeoutMs - (Date.now() - start));
  const name = await acpName(opts);
  if (!name) return { kind: 'unsupported', why: `opencode does not list ${opts.model}` };
  const typed = searchText(name.slice(name.indexOf('/') + 1));
  if (!typed) return { kind: 'unsupported', why: `no title of ${opts.model} to search for` };

  const file = join(opencodeStateDir(opts.env), 'model.json');
  const before = existsSync(file) ? readFileSync(file) : undefined;
  const wrote = writtenAt(file);
  const fail = (why: string): ModelChangeResult => {
    // Whatever is still open is closed; the relaunch stops the CLI anyway.
    if (readModelDialog(opts.screen())) opts.write('\x1b');
    restore(file, before);
    return { kind: 'unsupported', why };
  };

  opts.write(LEADER);
  await sleep(KEY_MS);
  opts.write('m');
  if (!(await waitFor(Math.min(left(), 10_000), () => readModelDialog(opts.screen())))) return fail("opencode's model dialog did not open (ctrl+x m)");
  opts.write(typed);
  const dialog = await settledDialog(opts, typed, Math.min(left(), 10_000));
  if (!dialog) return fail(`opencode's model dialog did not show the search ${JSON.stringify(typed)}`);
  const at = dialog.rows.findIndex((row) => rowIs(row, name));
  if (at < 0) return fail(`opencode's model dialog shows no row for ${name}`);
  for (let i = 0; i < at; i++) {
    opts.write(DOWN);
    await sleep(KEY_MS);
  }
  opts.write('\r');
  // Written anew (the same list rewritten when the model was already first), naming the model; another first means another row was taken.
  const chosen = await waitFor(left(), () => (writtenAt(file) !== wrote ? recentFirst(file) : undefined));
  if (chosen !== opts.model) return fail(`opencode did not record ${opts.model} as chosen in ${file} (${chosen ?? 'no answer'})`);
  restore(file, before);
  return { kind: 'changed' };
}
