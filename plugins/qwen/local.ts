// Qwen Code against a local model server: its OpenAI-compatible auth, by the variables it
// reads (OPENAI_BASE_URL, OPENAI_API_KEY, OPENAI_MODEL) over Chat Completions; `--auth-type
// openai` so a Qwen OAuth choice in the user's settings does not win.
import type { LocalEndpointOptions, LocalEndpointSpec } from '../../src/plugins/kit.js';

export function qwenLocalEndpoint(o: LocalEndpointOptions): LocalEndpointSpec {
  return {
    args: ['--auth-type', 'openai'],
    env: { OPENAI_BASE_URL: `${o.endpoint}/v1`, OPENAI_API_KEY: 'local', OPENAI_MODEL: o.model },
  };
}
