// real CLIs: claude-code-acp
// baton's view of claude-code-acp (declared in config/harness-registry.json) over ACP against the fake LLM:
// a write card approved (the file on disk), rejected (none), cancelled with Esc (none; the next
// turn runs), a shell call asked and run, the approvals and turns in the view's log, Esc while
// an allowed `sleep` runs (the turn ends, the sleep is gone), and the view started again:
// claude-code-acp offers loadSession and session/resume; baton sends session/load (it replays
// before answering) and Claude Code continues its session. The steps:
// test/helpers/acp-view-real.ts.
import { acpViewSuite } from '../helpers/acp-view-real.js';

acpViewSuite('claude-code-acp', { turnMs: 180_000, reopens: 'load' });
