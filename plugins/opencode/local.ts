// opencode against a local model server: a provider of baton's own ("baton-local", the
// AI SDK's OpenAI-compatible one, bundled in opencode) defined in OPENCODE_CONFIG_CONTENT,
// which opencode 1.18 merges over every config file it reads (merged in turn over the
// user's own OPENCODE_CONFIG_CONTENT, when that is a JSON object), so nothing is written to
// the user's files and nothing goes on the command line but the model id. opencode names models
// `<provider>/<model>`, so the CLI is given `baton-local/<model>` (the transcript keeps the
// name the user gave). The small model (titles) is the same one: otherwise a local run
// would ask the user's cloud provider, or fail for want of one. The three request timeouts
// opencode has (whole request, headers, between chunks; 5 min by default) are long: a
// local server processes a large brief before it answers. No key: local servers take none,
// `local` is a placeholder. Checked against the fake LLM with opencode 1.18.33 (`opencode
// acp` for a headless turn, the TUI with `--model` in a tab).
import { BatonError, EXIT, LOCAL_REQUEST_TIMEOUT_MS, type LocalEndpointOptions, type LocalEndpointSpec } from '../../src/plugins/kit.js';
import { mergeJsonVar } from './home.js';

/** opencode's id for baton's local provider. */
export const LOCAL_PROVIDER = 'baton-local';

/** The opencode config that points it at `o.endpoint` for `o.model` (OPENCODE_CONFIG_CONTENT). */
export function opencodeLocalConfig(o: LocalEndpointOptions): Record<string, unknown> {
  const model = `${LOCAL_PROVIDER}/${o.model}`;
  return {
    model,
    small_model: model,
    provider: {
      [LOCAL_PROVIDER]: {
        npm: '@ai-sdk/openai-compatible',
        name: `Local (${o.endpoint})`,
        options: {
          baseURL: `${o.endpoint}/v1`,
          apiKey: 'local',
          timeout: LOCAL_REQUEST_TIMEOUT_MS,
          headerTimeout: LOCAL_REQUEST_TIMEOUT_MS,
          chunkTimeout: LOCAL_REQUEST_TIMEOUT_MS,
        },
        models: { [o.model]: { name: o.model } },
      },
    },
  };
}

export function opencodeLocalEndpoint(o: LocalEndpointOptions): LocalEndpointSpec {
  if (o.api !== 'openai-chat') {
    throw new BatonError(
      `opencode is pointed at a local model server over OpenAI Chat Completions only, not ${o.api}`,
      EXIT.badInput,
      'give opencode the API "openai-chat" in your harness-registry.json local rules (docs/local-models.md)',
    );
  }
  const config = opencodeLocalConfig(o);
  // A value of the user's that is not a JSON object (opencode also reads JSONC there) gives way.
  const content = mergeJsonVar(o.env ?? {}, 'OPENCODE_CONFIG_CONTENT', config) ?? JSON.stringify(config);
  return {
    args: [],
    env: { OPENCODE_CONFIG_CONTENT: content },
    model: `${LOCAL_PROVIDER}/${o.model}`,
  };
}
