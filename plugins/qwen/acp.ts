// How baton's own view of a tab runs Qwen Code over ACP (`qwen --acp`): the model as its
// --model, the account's QWEN_HOME and auto-update off, as every qwen run gets them. It
// starts nothing.

import type { AcpAgentDecl, DriverEnv } from '../../src/plugins/kit.js';
import { QWEN_INSTALL_HINT, QWEN_LOGIN_HINT } from './headless.js';
import { qwenRunEnv } from './home.js';

export function qwenAcpDecl(opts: DriverEnv & { model?: string; account?: string }): AcpAgentDecl {
  return {
    name: 'qwen',
    title: 'Qwen Code',
    command: 'qwen',
    args: ['--acp', ...(opts.model ? ['--model', opts.model] : [])],
    env: qwenRunEnv(opts.env, opts.account),
    installHint: QWEN_INSTALL_HINT,
    loginHint: QWEN_LOGIN_HINT,
  };
}
