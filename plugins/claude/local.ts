// Claude Code against an Anthropic-compatible local server. The `env` of the user's
// settings.json wins over the process environment (checked: with ANTHROPIC_BASE_URL there,
// the variable alone is ignored), so the endpoint goes in `--settings` too, which ranks above
// the user's file. The token is a placeholder, not a secret: local servers take none.
import { LOCAL_REQUEST_TIMEOUT_MS, type LocalEndpointOptions, type LocalEndpointSpec } from '../../src/plugins/kit.js';

export function claudeLocalEndpoint(o: LocalEndpointOptions): LocalEndpointSpec {
  const env = {
    ANTHROPIC_BASE_URL: o.endpoint,
    ANTHROPIC_AUTH_TOKEN: 'local',
    API_TIMEOUT_MS: String(LOCAL_REQUEST_TIMEOUT_MS),
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  };
  return { args: ['--settings', JSON.stringify({ env })], env };
}
