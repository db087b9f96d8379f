// The one door through which @agentclientprotocol/sdk enters baton: what the ACP client, its
// file-system answers and its event mapping use of the SDK, re-exported. A change of SDK
// version or entry point (baton uses its `unstable` entry for session/fork and resume)
// touches this file only. No logic here.

export {
  client,
  ndJsonStream,
  PROTOCOL_VERSION,
  RequestError,
  type AuthMethod,
  type ClientConnection,
  type ContentBlock,
  type ForkSessionResponse,
  type InitializeResponse,
  type LoadSessionResponse,
  type NewSessionResponse,
  type PromptResponse,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
  type ResumeSessionResponse,
  type SessionModeState,
  type SessionUpdate,
  type ToolCallContent,
  type Usage as AcpUsage,
} from '@agentclientprotocol/sdk/unstable';
