// The credential shapes redaction looks for (redact.ts applies them): tokens recognized by
// their own prefix and length, and secrets recognized by what stands before them (an
// Authorization header, a password in a URL, a JSON field or an environment variable whose
// name says it holds a secret). Each rule reports spans; it never edits text.
// A rule must be unambiguous: a false positive silently corrupts the only copy of the
// user's context, so ordinary code (`token := lexer.Next()`, `const apiKey = getKey()`,
// `password_hash($p)`, `PASSWORD = "password"` in an enum), placeholders (`$API_KEY`,
// `<password>`, `sk_test_...`) and public identifiers (`pk_live_`, `AKIA` in prose) must
// never match. Every rule has samples both ways in test/fixtures/redaction/.

/** A secret found in a text: [start, end) and the kind its marker names. */
export interface Span {
  start: number;
  end: number;
  kind: string;
}

// ---- tokens with known prefixes ---------------------------------------------------------

interface TokenRule {
  kind: string;
  /** The literal start of the token (a regex source without groups). */
  prefix: string;
  /** Characters that, just before the prefix, would make it part of a longer word. */
  before: string;
  /** The rest of the token, with its own end boundary. */
  rest: string;
}

const TOKEN_RULES: readonly TokenRule[] = [
  { kind: 'anthropic-key', prefix: 'sk-ant-', before: 'A-Za-z0-9_-', rest: '[A-Za-z0-9_-]{20,}' },
  { kind: 'openai-key', prefix: 'sk-(?:proj|svcacct|admin)-', before: 'A-Za-z0-9_-', rest: '[A-Za-z0-9_-]{20,}' },
  // Legacy OpenAI keys: sk- and 32+ letters and digits, no dashes (so `sk-learn` stays).
  { kind: 'openai-key', prefix: 'sk-', before: 'A-Za-z0-9_-', rest: '[A-Za-z0-9]{32,}(?![A-Za-z0-9_-])' },
  // Stripe secret and restricted keys, live and test mode alike: a test key still opens
  // the account's test data. Publishable keys (pk_) are public by design and stay.
  { kind: 'stripe-key', prefix: '[sr]k_(?:live|test)_', before: 'A-Za-z0-9_', rest: '[A-Za-z0-9]{24,247}(?![A-Za-z0-9_])' },
  { kind: 'stripe-key', prefix: 'whsec_', before: 'A-Za-z0-9_', rest: '[A-Za-z0-9+/]{32,}={0,2}(?![A-Za-z0-9_+/=])' },
  { kind: 'github-token', prefix: 'gh[pousr]_', before: 'A-Za-z0-9_', rest: '[A-Za-z0-9]{36,251}(?![A-Za-z0-9_])' },
  { kind: 'github-token', prefix: 'github_pat_', before: 'A-Za-z0-9_', rest: '[A-Za-z0-9_]{22,244}(?![A-Za-z0-9_])' },
  { kind: 'gitlab-token', prefix: 'gl(?:pat|dt|rt|ptt|ft|soat|cbt|imt|oas|agent)-', before: 'A-Za-z0-9_-', rest: '[A-Za-z0-9_-]{20,}(?:\\.[A-Za-z0-9_-]+)*' },
  { kind: 'aws-key', prefix: '(?:AKIA|ASIA)', before: 'A-Za-z0-9', rest: '[A-Z0-9]{16}(?![A-Za-z0-9])' },
  { kind: 'slack-token', prefix: 'xox[abeprs]-', before: 'A-Za-z0-9_-', rest: '[A-Za-z0-9][A-Za-z0-9-]{18,}' },
  { kind: 'slack-token', prefix: 'xapp-', before: 'A-Za-z0-9_-', rest: '[0-9]-[A-Za-z0-9-]{20,}' },
  { kind: 'google-oauth-secret', prefix: 'GOCSPX-', before: 'A-Za-z0-9_-', rest: '[A-Za-z0-9_-]{28}(?![A-Za-z0-9_-])' },
  { kind: 'google-api-key', prefix: 'AIza', before: 'A-Za-z0-9_-', rest: '[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])' },
  { kind: 'npm-token', prefix: 'npm_', before: 'A-Za-z0-9_', rest: '[A-Za-z0-9]{36}(?![A-Za-z0-9_])' },
  { kind: 'sendgrid-key', prefix: 'SG\\.', before: 'A-Za-z0-9_.-', rest: '[A-Za-z0-9_-]{22}\\.[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])' },
  // Hugging Face: 34 letters of both cases (an identifier such as hf_model_name has '_').
  { kind: 'huggingface-token', prefix: 'hf_', before: 'A-Za-z0-9_', rest: '(?=[A-Za-z]{0,33}[A-Z])(?=[A-Za-z]{0,33}[a-z])[A-Za-z]{34}(?![A-Za-z0-9_])' },
  // PyPI API tokens are macaroons whose first bytes always encode "pypi.org".
  { kind: 'pypi-token', prefix: 'pypi-AgEIcHlwaS5vcmc', before: 'A-Za-z0-9_-', rest: '[A-Za-z0-9_-]{50,}' },
  { kind: 'digitalocean-token', prefix: 'do[opr]_v1_', before: 'A-Za-z0-9_', rest: '[a-f0-9]{64}(?![A-Za-z0-9_])' },
  { kind: 'shopify-token', prefix: 'shp(?:at|ca|pa|ss)_', before: 'A-Za-z0-9_', rest: '[a-fA-F0-9]{32}(?![A-Za-z0-9_])' },
  // A bare JSON Web Token: three base64url parts, the first two JSON objects ("eyJ" is
  // `{"`). A signature is required: an unsigned token grants nothing.
  { kind: 'jwt', prefix: 'eyJ', before: 'A-Za-z0-9_.-', rest: '[A-Za-z0-9_-]{8,}\\.ey[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{16,}(?![A-Za-z0-9_-])' },
];

// Each alternative starts with its literal prefix (so the scan skips ahead on it) and then
// looks behind that prefix for a boundary: the character before must not continue a word
// or a token, though the end of a terminal escape sequence may (coloured output: ESC[1m
// followed by the key). One capture group per rule tells which one matched.
const TOKENS = new RegExp(TOKEN_RULES.map((r) => `(${r.prefix}(?<=(?:^|[^${r.before}]|\\u001b\\[[0-9;:?]*[A-Za-z])${r.prefix})${r.rest})`).join('|'), 'g');
// Every prefix above, found fast: by the capitals some start with, or by the '_' or '-' that
// ends the others, looked behind from there (an alternation of lowercase starts would try
// at almost every character of a text).
const TOKEN_PREFILTER =
  /A(?:KIA|SIA|Iza)|GOCSPX-|SG\.|eyJ|[_-](?<=[sr]k[_-]|whsec_|gh[pousr]_|github_pat_|gl(?:pat|dt|rt|ptt|ft|soat|cbt|imt|oas|agent)-|xox[abeprs]-|xapp-|npm_|hf_|pypi-|do[opr]_v1_|shp(?:at|ca|pa|ss)_)/;

function tokenSpans(text: string, out: Span[]): void {
  if (!TOKEN_PREFILTER.test(text)) return;
  TOKENS.lastIndex = 0;
  for (let m = TOKENS.exec(text); m; m = TOKENS.exec(text)) {
    let i = 1;
    while (m[i] === undefined) i++;
    out.push({ start: m.index, end: m.index + m[0].length, kind: TOKEN_RULES[i - 1]!.kind });
  }
}

// ---- values that name a secret rather than hold one -------------------------------------

// $OPENAI_API_KEY, ${DB_PASSWORD:-x}, $(pass show x), {{ secrets.X }}, ${{ secrets.X }},
// {password}, <token>, %s, ***, xxxx, ..., or a marker of an earlier redaction: left as
// they are, they say where the secret comes from or that it was left out, which the next
// agent may need.
const PLACEHOLDER =
  /^(?:\$[A-Za-z_][A-Za-z0-9_]*|\$\{[^{}]*\}|\$\{\{[^{}]*\}\}|\$\([^()]*\)|\{\{[^{}]*\}\}|\{[A-Za-z_][A-Za-z0-9_.]*\}|<[^<>]*>|%[sd]|%\([A-Za-z_]+\)s|\*+|x+|X+|\.\.\.|…|\[REDACTED(?::[a-z-]+)?\])$/;
// A known prefix with its body elided: sk_live_xxx, ghp_..., sk-***.
const ELIDED = /^[A-Za-z0-9]{1,10}(?:[_-][A-Za-z0-9]{1,10}){0,2}[_-](?:x{3,}|X{3,}|\.{3}|…|\*{3,})$/;
// Settings that say whether there is a secret, not what it is (MYSQL_ALLOW_EMPTY_PASSWORD=yes).
const FLAG = /^(?:true|false|yes|no|on|off|enabled?|disabled?|null|none|nil|undefined|required|optional|[01])$/i;

/** A value that is a placeholder or a flag, never a secret. */
export const notASecret = (v: string): boolean => v === '' || PLACEHOLDER.test(v) || FLAG.test(v) || ELIDED.test(v);

// ---- field and variable names that say "secret" -----------------------------------------

// The last word of a field name (JSON key, object key): `password`, `db_password`,
// `clientSecret`, `x-api-key`. Never `token` alone (a lexer's token) nor `key`.
const FIELD_WORDS = 'client_?secret|secret_?access_?key|secret|passw(?:or)?d|passphrase|api[_-]?key|access_?token|refresh_?token|auth_?token|private_?key';
const FIELD_NAME = new RegExp(`^[A-Za-z0-9_.-]{0,40}?(${FIELD_WORDS})$`, 'i');

function wordKind(word: string): string {
  const w = word.toLowerCase().replace(/[_-]/g, '');
  if (w === 'clientsecret') return 'client-secret';
  if (w.startsWith('passw') || w === 'passphrase') return 'password';
  if (w === 'apikey') return 'api-key';
  if (w === 'accesstoken') return 'access-token';
  if (w === 'refreshtoken') return 'refresh-token';
  if (w === 'authtoken') return 'token';
  if (w === 'privatekey') return 'private-key';
  return 'secret';
}

/** The marker kind of a field whose name says it holds a secret, else undefined. */
export function fieldKind(name: string): string | undefined {
  if (name.length > 60) return undefined;
  const m = FIELD_NAME.exec(name);
  return m ? wordKind(m[1]!) : undefined;
}

// ---- secrets recognized by what precedes them --------------------------------------------

// Patterns start at a rare character or literal ('://', '=', 'Key') and look behind from
// there for the name before it, so a text is not tried at every letter.
interface ContextRule {
  /** Cheap test: when it fails, the rule cannot match. */
  prefilter: RegExp;
  /**
   * Global. The secret is the last group and ends the match (what follows it is a
   * lookahead), so its place is known without the indices flag, which slows every scan.
   */
  pattern: RegExp;
  /** The secret in a match, or undefined when the match holds none (a placeholder). */
  secret(m: RegExpExecArray): Span | undefined;
}

/** The span of group `g` of `m`, which ends the match, unless it is a placeholder or a flag. */
function group(m: RegExpExecArray, g: number, kind: string): Span | undefined {
  const v = m[g];
  if (v === undefined || notASecret(v)) return undefined;
  const end = m.index + m[0].length;
  return { start: end - v.length, end, kind };
}

const JSON_FIELD = `[A-Za-z0-9_.-]{0,40}?(?:${FIELD_WORDS})`;

// Uppercase variable names as in a .env file, a shell, a Dockerfile, docker -e: DB_PASSWORD,
// SECRET_KEY, STRIPE_API_KEY, GITLAB_TOKEN. Never lowercase (that is code: `password =
// request.form[...]`) and never a name that only starts like one (PASSWORD_MIN_LENGTH).
const ENV_NAME =
  '(?:[A-Z0-9]+_)*(?:PASSWORD|PASSWD|PASSPHRASE|SECRET|SECRET_KEY|SECRET_KEY_BASE|SECRET_ACCESS_KEY|API_KEY|APIKEY|PRIVATE_KEY|ENCRYPTION_KEY|SIGNING_KEY|MASTER_KEY|TOKEN)';

function envKind(name: string): string {
  if (/PASSW|PASSPHRASE/.test(name)) return 'password';
  if (/API_?KEY$/.test(name)) return 'api-key';
  if (name.endsWith('TOKEN')) return 'token';
  if (name.endsWith('PRIVATE_KEY')) return 'private-key';
  return 'secret';
}

/** `PASSWORD = "password"`, `API_KEY = "x-api-key"`: a constant naming a field, not a secret. */
function namesItself(name: string, value: string): boolean {
  const v = value.toLowerCase().replace(/[^a-z0-9]/g, '');
  const word = name.replace(/^(?:[A-Z0-9]+_)*?(?=PASSW|PASSPHRASE|SECRET|API_?KEY|PRIVATE_KEY|ENCRYPTION_KEY|SIGNING_KEY|MASTER_KEY|TOKEN)/, '');
  return v.includes(word.toLowerCase().replace(/_/g, '')) || name.toLowerCase().replace(/_/g, '').includes(v);
}

const CONTEXT_RULES: readonly ContextRule[] = [
  {
    // Authorization: Bearer TOKEN, and Basic base64(user:password).
    prefilter: /uthorization|UTHORIZATION/,
    pattern: /Authorization["']?\s*[:=]\s*["']?(?:Bearer[ \t]+([A-Za-z0-9\-._~+/]{12,}=*)|Basic[ \t]+([A-Za-z0-9+/]{8,}={0,2})(?![A-Za-z0-9+/=]))/gi,
    secret: (m) => (m[1] !== undefined ? group(m, 1, 'bearer') : group(m, 2, 'basic-auth')),
  },
  {
    prefilter: /[Aa]ccess_?[Kk]ey|ACCESS_KEY/,
    // `aws configure set aws_secret_access_key KEY` separates them with a space.
    pattern: /((?:aws_secret_access_key|SecretAccessKey)["']?(?:\s*[=:]\s*|[ \t]+)["']?)([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])/gi,
    secret: (m) => group(m, 2, 'aws-secret'),
  },
  {
    // "password": "value" in JSON; string values only, escapes included.
    prefilter: /"\s*:\s*"/,
    pattern: new RegExp(`"(${JSON_FIELD})"\\s*:\\s*"([^"\\\\\\r\\n]*(?:\\\\.[^"\\\\\\r\\n]*)*)(?=")`, 'gi'),
    secret: (m) => group(m, 2, fieldKind(m[1]!) ?? 'secret'),
  },
  {
    // The same inside a JSON string: \"password\": \"value\".
    prefilter: /\\"/,
    pattern: new RegExp(`\\\\"(${JSON_FIELD})\\\\"\\s*:\\s*\\\\"((?:[^"\\\\]|\\\\[^"])+?)(?=\\\\")`, 'gi'),
    secret: (m) => group(m, 2, fieldKind(m[1]!) ?? 'secret'),
  },
  {
    // scheme://user:password@host, up to the last '@' (a password may hold one unescaped).
    // Not a digest (docker://image:tag@sha256:...).
    prefilter: /:\/\/[^\s/]*@/,
    pattern: /:\/\/(?<=\b[a-z][a-z0-9+.-]{1,30}:\/\/)[^\s:/@?#"'<>`]*:([^\s/?#"'<>`]+)(?=@(?!sha\d+:))/gi,
    secret: (m) => group(m, 1, 'password'),
  },
  {
    // ?password=...&access_token=... in a URL, and Azure SAS / S3 presigned signatures.
    prefilter:
      /[?&](?:[Pp]ass|PASS|[Ss]ecret|SECRET|[Cc]lient|CLIENT|[Aa]pi|API|[Aa]ccess|ACCESS|[Rr]efresh|REFRESH|[Aa]uth|AUTH|[Pp]rivate|PRIVATE|[Ss]ig|SIG|[Xx]-[Aa]mz)/,
    pattern:
      /=(?<=[?&](password|passwd|client_secret|secret|api_?key|access_token|refresh_token|auth_token|private_token|sig|x-amz-signature)=)([^&\s#"'<>`]+)/gi,
    secret: (m) => {
      const name = m[1]!.toLowerCase();
      const signature = name === 'sig' || name === 'x-amz-signature';
      if (signature && m[2]!.length < 30) return undefined;
      return group(m, 2, signature ? 'signature' : name.endsWith('private_token') ? 'token' : (fieldKind(name) ?? 'secret'));
    },
  },
  {
    // Azure storage and Service Bus connection strings.
    prefilter: /(?:Account|SharedAccess)Key/,
    pattern: /Key(?<=(?:Account|SharedAccess)Key)\s*=\s*([A-Za-z0-9+/]{30,}={0,2})/g,
    secret: (m) => group(m, 1, 'azure-key'),
  },
  {
    // .NET / ODBC connection strings: ...;User Id=sa;Password=...;
    prefilter: /P(?:assword|WD|wd)[ \t]*=/,
    pattern: /=(?<=;[ \t]*(?:Password|PWD|Pwd)[ \t]*=)[ \t]*([^;"'\r\n]*[^;"'\r\n \t])(?=[ \t]*(?:;|["'\r\n]|$))/g,
    secret: (m) => group(m, 1, 'password'),
  },
  {
    prefilter: /hooks\.slack\.com/,
    pattern: /hooks\.slack\.com\/(?:services|workflows|triggers)\/(T[A-Z0-9]{6,}\/[A-Z0-9]{6,}\/[A-Za-z0-9/]{16,})/g,
    secret: (m) => group(m, 1, 'slack-webhook'),
  },
  {
    prefilter: /api\/webhooks\//,
    pattern: /discord(?:app)?\.com\/api\/webhooks\/([0-9]{15,}\/[A-Za-z0-9_-]{50,})/g,
    secret: (m) => group(m, 1, 'discord-webhook'),
  },
  {
    // --password=..., --api-key=..., --token=... on a command line; the '=' form only (a
    // flag followed by a space may take no value: `psql --password mydb`).
    prefilter: /--[a-z-]*(?:[Pp]ass|PASS|[Ss]ecret|SECRET|[Aa]pi-[Kk]ey|API-KEY|[Tt]oken|TOKEN)/,
    pattern: /=(?<=(?<![\w-])--([a-z-]*(?:password|passwd|secret|api-key|token))=)("[^"\r\n]*"|'[^'\r\n]*'|[^\s"'`]+)/gi,
    secret: (m) => {
      const raw = m[2]!;
      const quoted = raw.length >= 2 && (raw[0] === '"' || raw[0] === "'");
      const v = quoted ? raw.slice(1, -1) : raw;
      if (notASecret(v)) return undefined;
      const end = m.index + m[0].length - (quoted ? 1 : 0);
      const name = m[1]!.toLowerCase();
      return { start: end - v.length, end, kind: name.endsWith('token') ? 'token' : (fieldKind(name) ?? 'secret') };
    },
  },
  {
    // NAME=value as in .env, a shell or docker -e; `NAME = "literal"` as in settings code.
    prefilter: /PASSW|PASSPHRASE|SECRET|_KEY|APIKEY|TOKEN/,
    // Groups: the name, blanks before and after '=', then the value double-quoted,
    // single-quoted or bare (a bare value only right after '=', as a shell requires).
    pattern: new RegExp(
      `=(?<=(?<![^\\s"'\`=:])(${ENV_NAME})([ \\t]*)=)([ \\t]*)(?:"([^"\\r\\n]*)(?=")|'([^'\\r\\n]*)(?=')|(?<==)([^\\s"'\`;|&<>(){}\\[\\],\\\\]+)(?![^\\s"'\`;]))`,
      'g',
    ),
    secret: (m) => {
      const name = m[1]!;
      const g = [4, 5, 6].find((i) => m[i] !== undefined);
      if (g === undefined) return undefined;
      const value = m[g]!;
      const code = m[2] !== '' || m[3] !== '';
      if (name.endsWith('TOKEN')) {
        // A token setting must look like one; MAX_TOKEN=4096 and PAD_TOKEN="<pad>" do not.
        if (code || value.length < 16 || /^[0-9]+$/.test(value)) return undefined;
      }
      if (code && namesItself(name, value)) return undefined;
      return group(m, g, envKind(name));
    },
  },
];

// All the prefilters in one scan, a group each: the rules whose prefilter is found run.
const CONTEXT_TRIGGERS = new RegExp(CONTEXT_RULES.map((r) => `(${r.prefilter.source})`).join('|'), 'g');

function contextSpans(text: string, out: Span[]): void {
  let triggered = 0;
  CONTEXT_TRIGGERS.lastIndex = 0;
  for (let m = CONTEXT_TRIGGERS.exec(text); m; m = CONTEXT_TRIGGERS.exec(text)) {
    let i = 1;
    while (m[i] === undefined) i++;
    triggered |= 1 << (i - 1);
  }
  if (!triggered) return;
  for (let r = 0; r < CONTEXT_RULES.length; r++) {
    if (!(triggered & (1 << r))) continue;
    const rule = CONTEXT_RULES[r]!;
    rule.pattern.lastIndex = 0;
    for (let m = rule.pattern.exec(text); m; m = rule.pattern.exec(text)) {
      const s = rule.secret(m);
      if (s && s.end > s.start) out.push(s);
    }
  }
}

/** Every secret in `text` (unsorted, possibly overlapping), except private-key blocks. */
export function ruleSpans(text: string): Span[] {
  const out: Span[] = [];
  tokenSpans(text, out);
  contextSpans(text, out);
  return out;
}
