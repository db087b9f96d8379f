// real CLIs: qwen
// baton's view of Qwen Code 0.15 over ACP against the fake LLM: a write card approved (the file on disk),
// rejected (none), cancelled with Esc (none; the next turn runs), a shell call's output on its
// card, the approvals and turns in the view's log, Esc while an allowed `sleep` runs (the turn
// ends, the sleep is gone), and the view started again: Qwen Code offers loadSession and
// session/resume; baton sends session/load (it replays before answering) and Qwen Code
// continues its session. The steps: test/helpers/acp-view-real.ts.
import { acpViewSuite } from '../helpers/acp-view-real.js';

acpViewSuite('qwen', { turnMs: 180_000, reopens: 'load' });
