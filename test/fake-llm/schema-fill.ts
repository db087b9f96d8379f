// Builds a value that satisfies a JSON Schema, or Gemini's OpenAPI-style schema (upper-case
// types such as "OBJECT"), for structured-output requests: gemini's model router, its
// next-speaker check, opencode/qwen helpers that ask for JSON. The values are the smallest
// sane ones: first enum member, minimum numbers (at least 1, so gemini's router sees
// complexity_score >= 1), empty arrays unless minItems says otherwise.
// It must never throw on a schema shape it does not know: unknown means null.

type Schema = Record<string, unknown>;

const MAX_DEPTH = 12;

export function fillSchema(schema: unknown, root: unknown = schema): unknown {
  return fill(schema, root, 0, '');
}

function fill(s: unknown, root: unknown, depth: number, propName: string): unknown {
  if (depth > MAX_DEPTH || !s || typeof s !== 'object') return null;
  const schema = s as Schema;
  if (typeof schema.$ref === 'string') return fill(resolveRef(schema.$ref, root), root, depth + 1, propName);
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length) return pickEnum(schema.enum, propName);
  if ('default' in schema && schema.default !== undefined) return schema.default;
  for (const key of ['anyOf', 'oneOf'] as const) {
    const alts = schema[key];
    if (Array.isArray(alts) && alts.length) {
      const nonNull = alts.find((a) => typeOf(a as Schema) !== 'null') ?? alts[0];
      return fill(nonNull, root, depth + 1, propName);
    }
  }
  if (Array.isArray(schema.allOf) && schema.allOf.length) {
    const merged: Schema = {};
    const props: Schema = {};
    for (const part of schema.allOf) {
      const p = (part && typeof part === 'object' ? part : {}) as Schema;
      Object.assign(merged, p);
      Object.assign(props, (p.properties as Schema) ?? {});
    }
    delete merged.allOf;
    merged.properties = props;
    return fill(merged, root, depth + 1, propName);
  }
  switch (typeOf(schema)) {
    case 'object': {
      const out: Record<string, unknown> = {};
      const props = (schema.properties ?? {}) as Schema;
      for (const [name, sub] of Object.entries(props)) out[name] = fill(sub, root, depth + 1, name);
      return out;
    }
    case 'array': {
      const n = Math.max(0, Number(schema.minItems ?? 0));
      const items = Array.isArray(schema.items) ? schema.items[0] : schema.items;
      return Array.from({ length: n }, () => fill(items, root, depth + 1, propName));
    }
    case 'integer':
    case 'number': {
      const min = Number(schema.minimum ?? (schema.exclusiveMinimum as number | undefined) ?? 1);
      const max = schema.maximum === undefined ? Infinity : Number(schema.maximum);
      let v = Math.max(1, Number.isFinite(min) ? min : 1);
      if (typeof schema.exclusiveMinimum === 'number' && v <= schema.exclusiveMinimum) v = schema.exclusiveMinimum + 1;
      if (v > max) v = max;
      return typeOf(schema) === 'integer' ? Math.ceil(v) : v;
    }
    case 'boolean':
      return false;
    case 'null':
      return null;
    case 'string':
      return fillString(schema, propName);
    default:
      return 'minLength' in schema || 'format' in schema ? fillString(schema, propName) : null;
  }
}

function typeOf(schema: Schema): string | undefined {
  let t = schema.type;
  if (Array.isArray(t)) t = t.find((x) => String(x).toLowerCase() !== 'null') ?? t[0];
  if (typeof t === 'string') return t.toLowerCase();
  if (schema.properties) return 'object';
  if (schema.items) return 'array';
  return undefined;
}

function pickEnum(values: unknown[], propName: string): unknown {
  // gemini's next-speaker check: "user" ends the turn; "model" would make it loop.
  if (propName === 'next_speaker' && values.includes('user')) return 'user';
  return values[0];
}

function fillString(schema: Schema, propName: string): string {
  if (schema.format === 'date-time') return new Date(0).toISOString();
  if (schema.format === 'date') return '1970-01-01';
  if (schema.format === 'uri' || schema.format === 'url') return 'http://127.0.0.1/fake';
  let s = propName ? `fake ${propName}` : 'fake';
  const min = Number(schema.minLength ?? 0);
  while (s.length < min) s += ' fake';
  const max = schema.maxLength === undefined ? Infinity : Number(schema.maxLength);
  return s.slice(0, max);
}

function resolveRef(ref: string, root: unknown): unknown {
  if (!ref.startsWith('#')) return null;
  let cur: unknown = root;
  for (const raw of ref.slice(1).split('/').filter(Boolean)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (!cur || typeof cur !== 'object') return null;
    cur = (cur as Schema)[key];
  }
  return cur;
}
