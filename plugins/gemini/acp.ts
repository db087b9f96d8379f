// How baton's own view of a tab runs Gemini CLI over ACP (`gemini --acp`): the model as its
// -m and the account through GEMINI_CLI_HOME, as the TUI gets them. The client file system is
// not offered: gemini 0.61 reads a file before writing it and takes the protocol's "not found"
// answer for a new file as a failure (every write of a new file failed with it offered), so it
// reads and writes the disk itself, asking first. It starts nothing.

import type { AcpAgentDecl, DriverEnv } from '../../src/plugins/kit.js';
import { GEMINI_INSTALL_HINT, GEMINI_LOGIN_HINT } from './headless.js';
import { geminiAccountEnv } from './home.js';

export function geminiAcpDecl(opts: DriverEnv & { model?: string; account?: string }): AcpAgentDecl {
  return {
    name: 'gemini',
    title: 'Gemini CLI',
    command: 'gemini',
    args: ['--acp', ...(opts.model ? ['-m', opts.model] : [])],
    env: geminiAccountEnv(opts.env, opts.account),
    fs: false,
    installHint: GEMINI_INSTALL_HINT,
    loginHint: GEMINI_LOGIN_HINT,
  };
}
