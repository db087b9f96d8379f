// ARCHITECTURE.md's layers, checked from the import graph of src/ and plugins/ (read as text:
// no module is loaded): imports only point down the layers; blessed only in src/tui; a
// built-in driver reaches baton only through src/plugins/kit.ts; src/tui and src/server reach
// the conversation layer only through src/conversation/index.ts (commands in, snapshots out);
// each third-party package enters through one module (its door); and no two modules of src/ share a file name, so a
// name says which one it is.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';

const ROOT = join(import.meta.dirname, '../..');

/** Layers, lowest first: a module may import its own layer and the ones below. */
const LAYERS: readonly [string, RegExp][] = [
  ['leaf', /^src\/(errors|package-root|fs-failure)\.ts$|^src\/(proc|lifecycle)\//],
  ['transcript', /^src\/transcript\//],
  ['worktree', /^src\/worktree\//],
  ['plugins', /^src\/plugins\//],
  ['conversation', /^src\/conversation\//],
  // As in tmux, the server draws each client's view: it hosts the TUI, and a client relays it.
  ['tui', /^src\/tui\//],
  ['server', /^src\/server\//],
  ['client', /^src\/client\//],
  ['commands', /^src\/commands\//],
  ['cli', /^src\/cli\.ts$/],
];

function files(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(ROOT, dir)).sort()) {
    const rel = `${dir}/${name}`;
    if (statSync(join(ROOT, rel)).isDirectory()) out.push(...files(rel));
    else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) out.push(rel);
  }
  return out;
}

const SPEC = /(?:^|\n)\s*(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

/** What a module imports: baton's own modules (repo-relative .ts paths) and packages by name. */
function importsOf(file: string): { local: string[]; packages: string[] } {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const local: string[] = [];
  const packages: string[] = [];
  for (const m of text.matchAll(SPEC)) {
    const spec = (m[1] ?? m[2])!;
    if (spec.startsWith('.')) local.push(relative(ROOT, resolve(ROOT, dirname(file), spec)).replace(/\.js$/, '.ts'));
    else if (!spec.startsWith('node:')) packages.push(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!);
  }
  return { local, packages };
}

const layerOf = (file: string) => LAYERS.findIndex(([, re]) => re.test(file));
const SRC = files('src');
const DRIVERS = files('plugins');
const graph = new Map([...SRC, ...DRIVERS].map((f) => [f, importsOf(f)]));

test('every module of src/ belongs to a layer', () => {
  assert.equal(
    SRC.filter((f) => layerOf(f) < 0),
    [],
  );
});

test('imports only point down the layers', () => {
  const up: string[] = [];
  for (const f of SRC) {
    for (const to of graph.get(f)!.local) {
      if (!to.startsWith('src/')) {
        up.push(`${f} -> ${to} (outside src/)`);
        continue;
      }
      if (layerOf(to) > layerOf(f)) up.push(`${f} (${LAYERS[layerOf(f)]![0]}) -> ${to} (${LAYERS[layerOf(to)]?.[0]})`);
    }
  }
  assert.equal(up, []);
});

test('src/proc and src/lifecycle import nothing of baton outside their own folder', () => {
  const out: string[] = [];
  for (const f of SRC.filter((f) => /^src\/(proc|lifecycle)\//.test(f))) {
    for (const to of graph.get(f)!.local) if (dirname(to) !== dirname(f)) out.push(`${f} -> ${to}`);
  }
  assert.equal(out, []);
});

test('a built-in driver imports baton only through src/plugins/kit.ts (and its own folder)', () => {
  const bad: string[] = [];
  for (const f of DRIVERS) {
    const folder = dirname(f);
    for (const to of graph.get(f)!.local) if (to !== 'src/plugins/kit.ts' && dirname(to) !== folder) bad.push(`${f} -> ${to}`);
  }
  assert.equal(bad, []);
});

test('src/tui and src/server reach the conversation layer only through its index', () => {
  const around: string[] = [];
  for (const f of SRC.filter((f) => /^src\/(tui|server)\//.test(f))) {
    for (const to of graph.get(f)!.local) if (to.startsWith('src/conversation/') && to !== 'src/conversation/index.ts') around.push(`${f} -> ${to}`);
  }
  assert.equal(around, []);
});

test('src/tui and src/server open no conversation store and run no git themselves (the conversation layer does)', () => {
  const below: string[] = [];
  for (const f of SRC.filter((f) => /^src\/(tui|server)\//.test(f))) {
    for (const to of graph.get(f)!.local) if (/^src\/transcript\/store[-.]|^src\/worktree\//.test(to)) below.push(`${f} -> ${to}`);
  }
  assert.equal(below, []);
});

test('blessed only in src/tui', () => {
  const users = [...graph].filter(([, i]) => i.packages.includes('blessed')).map(([f]) => f);
  assert.ok(users.length > 0);
  assert.equal(
    users.filter((f) => !f.startsWith('src/tui/')),
    [],
  );
});

test('each third-party package enters through one module', () => {
  const doors = new Map<string, string[]>();
  for (const [f, i] of graph) for (const p of new Set(i.packages)) doors.set(p, [...(doors.get(p) ?? []), f]);
  const many = [...doors].filter(([, fs]) => fs.length > 1).map(([p, fs]) => `${p}: ${fs.join(', ')}`);
  assert.equal(many, []);
  // And each one in package.json is used (or is a build/type dependency).
  const deps = Object.keys((JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies);
  const loadedByName = ['better-sqlite3']; // loaded with import(name) by plugins/opencode/log-db.ts
  assert.equal(
    deps.filter((d) => !doors.has(d) && !loadedByName.includes(d)),
    [],
  );
});

test('no two modules of src/ share a file name', () => {
  const byName = new Map<string, string[]>();
  for (const f of SRC) byName.set(basename(f), [...(byName.get(basename(f)) ?? []), f]);
  assert.equal(
    [...byName].filter(([n, fs]) => fs.length > 1 && n !== 'index.ts').map(([, fs]) => fs.join(' ~ ')),
    [],
  );
});

test.run();
