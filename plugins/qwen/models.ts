// Qwen Code's models, from Qwen Code itself: its answer to ACP session/new (`qwen --acp`,
// with the account's QWEN_HOME), cached per build, account and provider variables. Its ids
// there carry the auth type and, for models from the environment, a runtime prefix
// (`$runtime|openai|fake-model(openai)`, `coder-model(qwen-oauth)`): what `--model` takes is
// the bare name, so that is the id baton lists.

import { acpModelList, type ModelInfo, type ModelList, type ModelListOptions } from '../../src/plugins/kit.js';
import { qwenAcpDecl } from './acp.js';

/** The name `--model` takes for one of Qwen Code's ACP model ids. */
export function qwenModelName(acpId: string): string {
  const last = acpId.split('|').pop() ?? acpId;
  return last.replace(/\([^()]*\)$/, '') || acpId;
}

export async function qwenModels(opts: ModelListOptions): Promise<ModelList> {
  const list = await acpModelList(qwenAcpDecl(opts), opts);
  const seen = new Set<string>();
  const models: ModelInfo[] = [];
  for (const m of list.models) {
    const id = qwenModelName(m.id);
    if (seen.has(id)) continue;
    seen.add(id);
    models.push({ id, ...(m.description ? { description: m.description } : {}) });
  }
  return { ...list, models, ...(list.current ? { current: qwenModelName(list.current) } : {}) };
}
