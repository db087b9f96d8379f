// Codex against a local model server: a provider given entirely with `-c` (nothing written
// to CODEX_HOME, so the user's config.toml and the account stay untouched), over Responses
// (codex speaks no other wire API), with a long stream idle timeout. No key: local servers
// take none. Checked by hand against the fake LLM with codex 0.x `exec`.
import { LOCAL_REQUEST_TIMEOUT_MS, type LocalEndpointOptions, type LocalEndpointSpec } from '../../src/plugins/kit.js';

export function codexLocalEndpoint(o: LocalEndpointOptions): LocalEndpointSpec {
  const provider = `{name="Local",base_url=${JSON.stringify(`${o.endpoint}/v1`)},wire_api="responses",stream_idle_timeout_ms=${LOCAL_REQUEST_TIMEOUT_MS},request_max_retries=1}`;
  return { args: ['-c', 'model_provider="baton-local"', '-c', `model_providers.baton-local=${provider}`], env: {} };
}
