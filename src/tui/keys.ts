// Key configuration (config/keys.json merged with $XDG_CONFIG_HOME/baton/keys.json) and the
// input router: the prefix state machine that decides, byte by byte, whether input goes to
// the focused CLI unchanged, names a baton command, or belongs to an open baton view.
// It must never re-encode what it forwards: pane input leaves as the bytes that came in.
// A bracketed paste is one action, never keys: for the pane it goes to the program (see
// Pane.paste), for an open view it is handed over whole (the compose bar puts it in the
// draft), so a newline in pasted text can never press Enter in baton's own views.

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { badInput } from '../errors.js';
import { stripControls } from '../transcript/sanitize.js';
import { canonicalKey, keyBytes, parseKeys } from './key-parse.js';

export const COMMANDS = [
  'new-tab',
  'next-tab',
  'prev-tab',
  'switch-agent',
  'compose',
  'transcript',
  'help',
  'close-tab',
  'quit',
  'scroll-mode',
  'detach',
  'approvals',
  'mode',
] as const;
export type SimpleCommand = (typeof COMMANDS)[number];
export type Command = SimpleCommand | `select-tab:${number}`;

export const COMMAND_HELP: Record<SimpleCommand | 'select-tab', string> = {
  'new-tab': 'new tab (pick an agent or a plain shell)',
  'next-tab': 'next tab',
  'prev-tab': 'previous tab',
  'select-tab': 'go to tab N',
  'switch-agent': "switch this tab's agent or model (s in it: a summary first)",
  compose: 'focus the compose bar',
  transcript: 'transcript view',
  help: 'this help',
  'close-tab': 'close this tab',
  quit: 'quit baton (ends every tab)',
  detach: 'detach: leave every tab running in the server; `baton` brings them back',
  'scroll-mode': 'scroll mode: PgUp/PgDn/arrows, / search, v select, y copy, q leave',
  approvals: 'answer a tab waiting for approval without going to it',
  mode: "this tab's permission mode (default, accept-edits, plan, full-access)",
};

export interface KeyConfig {
  /** Key name of the prefix, e.g. "C-b". */
  prefix: string;
  /** The bytes the prefix arrives as (and is sent through as when pressed twice). */
  prefixBytes: string;
  /** Canonical key name (as parseKeys names it) -> command. */
  bindings: Map<string, Command>;
  /** Files the configuration was read from, in merge order. */
  sources: string[];
}

/** config/keys.json of the package, whether running from src/ (tsx) or from dist/src/ (built). */
export const DEFAULT_KEYS_PATH =
  [new URL('../../config/keys.json', import.meta.url), new URL('../../../config/keys.json', import.meta.url)]
    .map((u) => fileURLToPath(u))
    .find((p) => existsSync(p)) ?? fileURLToPath(new URL('../../config/keys.json', import.meta.url));

export function isCommand(value: unknown): value is Command {
  if (typeof value !== 'string') return false;
  if ((COMMANDS as readonly string[]).includes(value)) return true;
  return /^select-tab:\d$/.test(value);
}

interface RawKeys {
  prefix?: unknown;
  bindings?: unknown;
}

function readKeysFile(path: string, required: boolean): RawKeys | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    if (!required && (e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw badInput(`cannot read key configuration ${path}: ${(e as Error).message}`, 'Fix or remove the file.');
  }
  try {
    const parsed: unknown = JSON.parse(text);
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('expected a JSON object');
    return parsed as RawKeys;
  } catch (e) {
    throw badInput(`bad key configuration ${path}: ${(e as Error).message}`, 'Fix the JSON or remove the file to use the defaults.');
  }
}

function applyKeys(cfg: { prefix: string; bindings: Map<string, Command> }, raw: RawKeys, path: string): void {
  const fail = (what: string) =>
    badInput(`bad key configuration ${path}: ${what}`, 'Key names look like "C-b", "M-x", "c", "?", "PageUp". See config/keys.json for the defaults.');
  for (const k of Object.keys(raw)) if (k !== 'prefix' && k !== 'bindings') throw fail(`unknown field "${k}"`);
  if (raw.prefix !== undefined) {
    if (typeof raw.prefix !== 'string') throw fail('"prefix" must be a string');
    const bytes = keyBytes(raw.prefix);
    // The prefix is found by scanning raw input; a printable key or a sequence that can occur
    // inside an escape sequence (M-[ , M-O) would be found where it was never pressed.
    if (!bytes || !(/^C-/.test(raw.prefix) || /^M-[^[O]$/.test(raw.prefix))) {
      throw fail(`prefix "${raw.prefix}" must be a control or meta key such as "C-b" or "M-a"`);
    }
    cfg.prefix = raw.prefix;
  }
  if (raw.bindings !== undefined) {
    if (!raw.bindings || typeof raw.bindings !== 'object' || Array.isArray(raw.bindings)) throw fail('"bindings" must be an object of key -> command');
    for (const [key, command] of Object.entries(raw.bindings as Record<string, unknown>)) {
      const name = canonicalKey(key);
      if (!name) throw fail(`unknown key "${key}"`);
      if (command === null) {
        cfg.bindings.delete(name);
        continue;
      }
      if (!isCommand(command)) throw fail(`unknown command ${JSON.stringify(command)} for key "${key}" (known: ${COMMANDS.join(', ')}, select-tab:N)`);
      cfg.bindings.set(name, command);
    }
  }
}

/** The user's key file: $XDG_CONFIG_HOME/baton/keys.json (default ~/.config); undefined with neither set. */
export function userKeysPath(env: NodeJS.ProcessEnv): string | undefined {
  const xdg = env.XDG_CONFIG_HOME || (env.HOME ? join(env.HOME, '.config') : undefined);
  return xdg ? join(xdg, 'baton', 'keys.json') : undefined;
}

/** tmux's own prefix, unless its user changed it. */
const TMUX_PREFIX = 'C-b';

/**
 * Inside tmux ($TMUX set) with baton's prefix the same as tmux's default: what that means
 * and how to give baton another, in full (the help) and short (the start-up status line).
 * Undefined outside tmux or with another prefix.
 */
export function tmuxPrefixNote(cfg: KeyConfig, env: NodeJS.ProcessEnv): { full: string; short: string } | undefined {
  if (!env.TMUX || cfg.prefix !== TMUX_PREFIX) return undefined;
  const p = cfg.prefix;
  const file = userKeysPath(env) ?? '~/.config/baton/keys.json';
  return {
    full: `Inside tmux: ${p} is tmux's prefix too, and tmux takes it first. Press it twice to reach baton (${p} ${p} c: new tab), or give baton its own prefix in ${file}, e.g. {"prefix": "C-a"}, and start baton again.`,
    // One status line at 80 columns.
    short: `tmux's prefix is ${p} too: ${p} ${p} reaches baton · ${p} ${p} ? to change baton's`,
  };
}

/**
 * The default keys, then the user's file merged over them (same key: the user's command;
 * a key mapped to null is unbound). A bad file is an error naming the file, never ignored.
 */
export function loadKeyConfig(opts: { env: NodeJS.ProcessEnv; defaultsPath?: string }): KeyConfig {
  const defaultsPath = opts.defaultsPath ?? DEFAULT_KEYS_PATH;
  const cfg = { prefix: 'C-b', bindings: new Map<string, Command>() };
  const sources: string[] = [];
  applyKeys(cfg, readKeysFile(defaultsPath, true)!, defaultsPath);
  sources.push(defaultsPath);
  const userPath = userKeysPath(opts.env);
  if (userPath) {
    const raw = readKeysFile(userPath, false);
    if (raw) {
      applyKeys(cfg, raw, userPath);
      sources.push(userPath);
    }
  }
  return { prefix: cfg.prefix, prefixBytes: keyBytes(cfg.prefix)!, bindings: cfg.bindings, sources };
}

/** Commands that act on a tab's agent and its conversation: a plain shell's tab refuses them. */
export const AGENT_TAB_COMMANDS: ReadonlySet<string> = new Set<SimpleCommand>(['switch-agent', 'compose', 'transcript', 'mode']);

/** Bindings grouped for the help overlay: one line per command (`group`), select-tab:N folded into "0-9". */
export function describeBindings(cfg: KeyConfig): { keys: string; help: string; group: string }[] {
  const byCommand = new Map<string, string[]>();
  for (const [key, command] of cfg.bindings) {
    const group = command.startsWith('select-tab:') ? 'select-tab' : command;
    byCommand.set(group, [...(byCommand.get(group) ?? []), key]);
  }
  const order = ['new-tab', 'next-tab', 'prev-tab', 'select-tab', ...COMMANDS];
  const groups = [...byCommand.keys()].sort((a, b) => order.indexOf(a) - order.indexOf(b));
  const out: { keys: string; help: string; group: string }[] = [];
  for (const group of groups) {
    const keys = byCommand.get(group)!;
    const help = COMMAND_HELP[group as keyof typeof COMMAND_HELP];
    const shown = group === 'select-tab' && keys.length === 10 && keys.every((k) => /^\d$/.test(k)) ? ['0-9'] : keys;
    out.push({ keys: shown.map((k) => `${cfg.prefix} ${k}`).join(', '), help, group });
  }
  out.push({ keys: `${cfg.prefix} ${cfg.prefix}`, help: `send ${cfg.prefix} to the program in the tab`, group: 'prefix' });
  return out;
}

export type RouterMode = 'pane' | 'prefix' | 'ui';

export type RouterAction =
  | { kind: 'pane'; data: string }
  | { kind: 'paste'; text: string }
  /** Text pasted while a baton view has the keyboard; the view decides what it means. */
  | { kind: 'ui-paste'; text: string }
  | { kind: 'focus'; focused: boolean }
  | { kind: 'command'; command: Command; key: string }
  | { kind: 'unbound'; key: string }
  | { kind: 'ui'; data: string };

const PASTE_START = '\x1b[200~';
const PASTE_END = '\x1b[201~';
const FOCUS_IN = '\x1b[I';
const FOCUS_OUT = '\x1b[O';

/**
 * The prefix state machine. `mode` may be changed by whoever handles an action, and the
 * rest of the same chunk is routed under the new mode (prefix, then `[`, then PgUp in one
 * read must reach scroll mode).
 */
export class InputRouter {
  mode: RouterMode = 'pane';
  private paste: string | undefined;

  /** Esc then the prefix, as they arrive in one read (none for a prefix that is itself an Alt key). */
  private readonly escPrefix: string | undefined;

  constructor(private readonly cfg: KeyConfig) {
    this.escPrefix = cfg.prefixBytes.startsWith('\x1b') ? undefined : `\x1b${cfg.prefixBytes}`;
  }

  /** Set by stop(): the rest of the read being routed is handed back, not routed. */
  private stopping = false;

  /**
   * Called while a key is being dispatched (a picker answered): what follows that key in the
   * same read is handed to feed()'s `onRest` instead of being routed now, as if it came later.
   */
  stop(): void {
    this.stopping = true;
  }

  feed(data: string, dispatch: (action: RouterAction) => void, onRest?: (rest: string) => void): void {
    let rest = data;
    while (rest.length > 0) {
      if (this.paste !== undefined) {
        // The end marker may be split across reads (a large paste arrives in pieces).
        const buf = this.paste + rest;
        const end = buf.indexOf(PASTE_END, Math.max(0, this.paste.length - PASTE_END.length + 1));
        if (end < 0) {
          this.paste = buf;
          return;
        }
        const text = buf.slice(0, end);
        this.paste = undefined;
        rest = buf.slice(end + PASTE_END.length);
        if (this.mode === 'ui') dispatch({ kind: 'ui-paste', text });
        else {
          this.mode = 'pane';
          dispatch({ kind: 'paste', text });
        }
        continue;
      }
      if (rest.startsWith(PASTE_START)) {
        this.paste = '';
        rest = rest.slice(PASTE_START.length);
        continue;
      }
      if (this.mode === 'ui') {
        // Key by key: a key may close the view (q in scroll mode), and what follows in the
        // same read (prefix q) is then the pane's or a command again.
        const p = rest.indexOf(PASTE_START);
        const chunk = p < 0 ? rest : rest.slice(0, p);
        let used = 0;
        for (const key of parseKeys(chunk, true).keys) {
          if (key.seq === this.escPrefix) {
            // An Esc and the prefix in one read (typed fast, or joined on the way over ssh)
            // parse as one key, Alt-prefix, which no view takes (blessed drops it, and the
            // compose bar kept the key after it as text): they are two keys. The view gets
            // the Esc, and the prefix is routed again in the mode the Esc leaves.
            dispatch({ kind: 'ui', data: '\x1b' });
            used += 1;
            break;
          }
          dispatch({ kind: 'ui', data: key.seq });
          used += key.seq.length;
          if (this.stopping || this.mode !== 'ui') break;
        }
        rest = rest.slice(used);
        if (this.stopping) {
          this.stopping = false;
          if (rest && onRest) onRest(rest);
          return;
        }
        continue;
      }
      if (this.mode === 'prefix') {
        const { keys } = parseKeys(rest, true);
        const key = keys[0]!;
        rest = rest.slice(key.seq.length);
        this.mode = 'pane';
        if (key.seq === this.cfg.prefixBytes) dispatch({ kind: 'pane', data: key.seq });
        else {
          const command = this.cfg.bindings.get(key.name);
          if (command) dispatch({ kind: 'command', command, key: key.name });
          else if (key.name !== 'Escape') dispatch({ kind: 'unbound', key: key.name });
        }
        continue;
      }
      // pane mode: forward everything up to the next thing baton must see itself.
      const stops = [rest.indexOf(this.cfg.prefixBytes), rest.indexOf(PASTE_START), rest.indexOf(FOCUS_IN), rest.indexOf(FOCUS_OUT)].filter((i) => i >= 0);
      const stop = stops.length ? Math.min(...stops) : -1;
      if (stop < 0) {
        dispatch({ kind: 'pane', data: rest });
        return;
      }
      if (stop > 0) {
        dispatch({ kind: 'pane', data: rest.slice(0, stop) });
        rest = rest.slice(stop);
        continue;
      }
      if (rest.startsWith(this.cfg.prefixBytes)) {
        rest = rest.slice(this.cfg.prefixBytes.length);
        this.mode = 'prefix';
        continue;
      }
      if (rest.startsWith(FOCUS_IN) || rest.startsWith(FOCUS_OUT)) {
        dispatch({ kind: 'focus', focused: rest.startsWith(FOCUS_IN) });
        rest = rest.slice(3);
      }
    }
  }
}

/**
 * Pasted text for a view that takes keys, not text (a picker's filter, a search prompt):
 * one line, control sequences and characters gone, so nothing in it can act as a key —
 * line breaks become spaces instead of pressing Enter.
 */
export function pasteAsKeys(text: string): string {
  return stripControls(text.replace(/\r\n|[\r\n\t]/g, ' '));
}
