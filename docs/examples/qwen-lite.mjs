// qwen-lite.mjs: Qwen Code (0.15) as a baton drop-in, built on the kit alone. A tab runs
// qwen's own TUI; ingest follows qwen's chat log (<QWEN_RUNTIME_DIR or QWEN_HOME or
// ~/.qwen>/projects/<cwd, non-alphanumerics as "-">/chats/<session>.jsonl); a headless turn
// speaks ACP (`qwen --acp`). Unlike the built-in `qwen` driver it has no accounts and does
// not force auto-update off: set general.enableAutoUpdate false in qwen's settings yourself.
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

const INSTALL = 'npm install -g @qwen-code/qwen-code@0.15.10';
const LOGIN = 'set OPENAI_API_KEY, OPENAI_BASE_URL and OPENAI_MODEL (it runs with --auth-type openai)';

const chats = (env, cwd) =>
  join(env.QWEN_RUNTIME_DIR || env.QWEN_HOME || join(env.HOME || homedir(), '.qwen'), 'projects', cwd.replace(/[^a-zA-Z0-9]/g, '-'), 'chats');
const logOf = ({ env, cwd, session }) => [join(chats(env, cwd), `${session}.jsonl`)].find(existsSync);

// One chat-log record -> events. Records are Gemini-style messages (`parts`); there is no
// end-of-turn record: a reply without a function call is the turn's last.
function newParser() {
  const parser = { skipped: 0, parse };
  const skip = () => { parser.skipped++; return []; };
  function parse(r) {
    if (r?.type === 'system') return []; // telemetry and bookkeeping
    const parts = Array.isArray(r?.message?.parts) ? r.message.parts : undefined;
    if (!parts) return skip();
    if (r.type === 'user') {
      const text = parts.map((p) => (p.thought ? '' : p.text ?? '')).join('').trim();
      return text ? [{ type: 'user_text', text }] : [];
    }
    if (r.type === 'tool_result') {
      const failed = r.toolCallResult?.status !== undefined && r.toolCallResult.status !== 'success';
      return parts.filter((p) => p.functionResponse).map(({ functionResponse: f }) => ({
        type: 'tool_result', toolCallId: f.id, toolName: f.name ?? 'tool', isError: failed,
        output: typeof f.response?.output === 'string' ? f.response.output : JSON.stringify(f.response ?? null),
      }));
    }
    if (r.type !== 'assistant') return skip();
    const out = parts.flatMap((p) =>
      p.functionCall ? [{ type: 'tool_call', toolCallId: p.functionCall.id, toolName: p.functionCall.name ?? 'tool', input: p.functionCall.args ?? {} }]
      : p.text ? [{ type: p.thought ? 'reasoning' : 'agent_text', text: p.text }] : []);
    const u = r.usageMetadata;
    const usage = u && { inputTokens: u.promptTokenCount ?? 0, outputTokens: u.candidatesTokenCount ?? 0 };
    return out.some((e) => e.type === 'tool_call') ? out : [...out, usage ? { type: 'turn_end', usage } : { type: 'turn_end' }];
  }
  return parser;
}

export default (kit) => {
  const ingest = (opts) => kit.followSessionLog(opts, {
    dir: (cwd) => chats(opts.env, cwd),
    find: (session) => logOf({ ...opts, session }),
    newParser,
    recordTime: (r) => Date.parse(r?.timestamp) || undefined,
  });
  const acp = { name: 'qwen-lite', title: 'Qwen Code (lite)', command: 'qwen', args: ['--acp', '--auth-type', 'openai'], modelArg: '--model', installHint: INSTALL, loginHint: LOGIN };
  return {
    name: 'qwen-lite',
    title: 'Qwen Code (lite)',
    testedVersions: '0.15.x',
    capabilities: { resume: true },
    detect: ({ env }) => kit.detectCli({ command: 'qwen', npmPackage: '@qwen-code/qwen-code', installHint: INSTALL, loginHint: LOGIN, probeTimeoutMs: 20_000 }, env),
    // baton pastes the first message once the screen reads idle: nothing private in argv.
    launch: ({ cwd, model, resume, args = [] }) =>
      ({ command: 'qwen', args: [...args, ...(model ? ['--model', model] : []), ...(resume ? ['--resume', resume] : [])], cwd }),
    statusFromScreen(lines) {
      const screen = lines.join('\n'); // a dialog first, then the spinner: the input box stays on screen
      if (/Waiting for user confirmation|Allow execution of|Apply this change\?|Do you trust this folder\?/.test(screen)) return 'approval';
      return /esc to cancel|Initializing\.\.\./i.test(screen) ? 'working' : /Type your message/.test(screen) ? 'idle' : undefined;
    },
    ingest,
    sessionLogPath: async (opts) => logOf(opts),
    async headless(turn) {
      // qwen's session/load takes an unknown id for a new, empty session: refuse it first.
      if (turn.resume && !logOf({ ...turn, session: turn.resume })) throw new kit.ResumeFailedError(turn.resume, 'qwen has no chat log of it here');
      // qwen writes its reply to the log a moment after answering: the turn waits for it there.
      return kit.runAcpTurn(acp, turn, { sessionLog: ingest });
    },
  };
};
