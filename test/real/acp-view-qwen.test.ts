// real CLIs: qwen
// baton's view of Qwen Code 0.15 over ACP against the fake LLM: a write card approved (the file on disk),
// rejected (none), cancelled with Esc (none; the next turn runs), a shell call's output on its
// card, the approvals and turns in the view's log. The steps: test/helpers/acp-view-real.ts.
import { acpViewSuite } from '../helpers/acp-view-real.js';

acpViewSuite('qwen', { turnMs: 180_000 });
