// The driver contract's part for a local model server (`baton chat --local`, the picker's
// "Local model…"): what a driver's localEndpoint is given and returns to launch its CLI
// pointed at the server. Re-exported by api.ts, the module drivers are written against.

export interface LocalEndpointOptions {
  /** The server's base URL, without `/v1` (local-endpoint.ts normalizeEndpoint). */
  endpoint: string;
  api: 'openai-chat' | 'openai-responses' | 'anthropic-messages';
  model: string;
  /** The user's environment, for a setting baton adds to rather than replaces (opencode's OPENCODE_CONFIG_CONTENT). */
  env?: NodeJS.ProcessEnv;
}

export interface LocalEndpointSpec {
  args: string[];
  env: Record<string, string>;
  /**
   * The model as the CLI must be given it, when not the name the user gave (opencode:
   * `<provider>/<model>`). The transcript keeps the user's name.
   */
  model?: string;
}

/** How long a request to a local model may take: local prompt processing of a large brief is slow. */
export const LOCAL_REQUEST_TIMEOUT_MS = 30 * 60 * 1000;
