// real CLIs: opencode
// baton's view of opencode 1.18 (its ACP server takes 5-30 s to start on a busy 2-core machine) over ACP against the fake LLM: a write card approved (the file on disk),
// rejected (none), cancelled with Esc (none; the next turn runs), a shell call's output on its
// card, the approvals and turns in the view's log, Esc while an allowed `sleep` runs (the turn
// ends, the sleep is gone), and the view started again: opencode offers loadSession and
// session/resume; baton sends session/load (it replays before answering) and opencode
// continues its session. The steps: test/helpers/acp-view-real.ts.
import { acpViewSuite } from '../helpers/acp-view-real.js';

acpViewSuite('opencode', { turnMs: 180_000, reopens: 'load' });
