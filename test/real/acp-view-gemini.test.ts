// real CLIs: gemini
// baton's view of Gemini CLI 0.61 (the client file system not offered to it) over ACP against the fake LLM: a write card approved (the file on disk),
// rejected (none), cancelled with Esc (none; the next turn runs), a shell call's output on its
// card, the approvals and turns in the view's log, Esc while an allowed `sleep` runs (the turn
// ends, the sleep is gone), and the view started again: Gemini CLI offers loadSession (no
// resume), so baton sends session/load of the same session; Gemini CLI streams the replay
// after it has answered the load, which baton drops until its first prompt. Reopened within
// the minute the session began, Gemini CLI 0.61's load fails ("No previous sessions found":
// its new recording for the id resets the file of that minute and id); baton then says it
// could not continue the session and works on in a new one, given the conversation so far
// from baton's log with the next message (acp-view-brief.ts). The suite reopens in a later
// minute, as a person restarting baton does. The steps: test/helpers/acp-view-real.ts.
import { acpViewSuite } from '../helpers/acp-view-real.js';

acpViewSuite('gemini', { turnMs: 180_000, reopens: 'load', reopenInALaterMinute: true });
