// "Was this driver tested with the installed version?" A tiny, dependency-free range check
// for the ranges drivers state in `testedVersions`: space-separated comparators that must
// all hold (`>=0.15.0 <0.16`), alternatives joined by `||`, `x`/`*` wildcards (`1.18.x`).
// Pre-release tags are ignored. It never throws on what a CLI prints; it answers undefined.

type Triple = [number, number, number];

/** The first `N.N[.N]` found in a string such as `codex-cli 0.171.0` or `v1.2`. */
export function extractVersion(text: string): string | undefined {
  const m = /(\d+)\.(\d+)(?:\.(\d+))?/.exec(text);
  return m ? m[0] : undefined;
}

function parse(v: string): Triple | undefined {
  const m = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?/.exec(v.trim());
  if (!m) return undefined;
  return [Number(m[1]), Number(m[2] ?? 0), Number(m[3] ?? 0)];
}

function cmp(a: Triple, b: Triple): number {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}

function holds(version: Triple, comparator: string): boolean | undefined {
  const m = /^(>=|<=|>|<|=)?\s*(.+)$/.exec(comparator);
  if (!m) return undefined;
  const op = m[1] ?? '=';
  const rhs = m[2]!;
  // Wildcards: `1.18.x` means >=1.18.0 <1.19.0.
  const parts = rhs.replace(/^v/, '').split('.');
  const wild = parts.findIndex((p) => p === 'x' || p === 'X' || p === '*');
  if (wild !== -1 && op === '=') {
    for (let i = 0; i < wild; i++) if (Number(parts[i]) !== version[i]) return false;
    return true;
  }
  const target = parse(rhs);
  if (!target) return undefined;
  const c = cmp(version, target);
  switch (op) {
    case '>=':
      return c >= 0;
    case '<=':
      return c <= 0;
    case '>':
      return c > 0;
    case '<':
      return c < 0;
    default:
      return c === 0;
  }
}

/**
 * Whether `version` is inside `range`; undefined when either cannot be read (then baton
 * does not warn: it only warns about what it knows to be outside).
 */
export function versionInRange(version: string, range: string): boolean | undefined {
  const v = parse(extractVersion(version) ?? '');
  if (!v) return undefined;
  let unknown = false;
  for (const alt of range.split('||')) {
    const comparators = alt.trim().split(/\s+/).filter(Boolean);
    if (!comparators.length) continue;
    let all: boolean | undefined = true;
    for (const c of comparators) {
      const r = holds(v, c);
      if (r === undefined) all = undefined;
      else if (!r) {
        all = false;
        break;
      }
    }
    if (all === true) return true;
    if (all === undefined) unknown = true;
  }
  return unknown ? undefined : false;
}
