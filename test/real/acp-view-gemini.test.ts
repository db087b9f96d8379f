// real CLIs: gemini
// baton's view of Gemini CLI 0.61 (the client file system not offered to it) over ACP against the fake LLM: a write card approved (the file on disk),
// rejected (none), cancelled with Esc (none; the next turn runs), a shell call's output on its
// card, the approvals and turns in the view's log. The steps: test/helpers/acp-view-real.ts.
import { acpViewSuite } from '../helpers/acp-view-real.js';

acpViewSuite('gemini', { turnMs: 180_000 });
