// The byte stream a client speaks frames over, whatever carries it: the server's Unix socket
// on this machine, or ssh's stdin and stdout to a `baton proxy` on another
// (ssh-transport.ts). connect.ts does the handshake and attach.ts relays a view over either,
// the same code; only how the stream ends, and why, differs, and a transport says that in
// words (a lost ssh connection is not a server that died).

import type { Socket } from 'node:net';
import { BatonError, EXIT } from '../errors.js';

export interface TransportEnd {
  /** For a client the server never welcomed: why (no ssh, no baton there, ...), or undefined when nothing is known but the close. */
  unanswered: BatonError | undefined;
  /** For an attached client: what broke (a socket error, ssh's lost connection), or undefined when the far end simply closed. */
  lost: string | undefined;
}

export interface Transport {
  /** The server, as messages name it: `baton server default`, `baton server default on HOST`. */
  readonly label: string;
  /** The host it is on, for commands to suggest (`--host HOST`); undefined on this machine. */
  readonly host: string | undefined;
  write(data: Buffer): void;
  /** Bytes from the server, in order (one listener; set before any can arrive: the first turn of the event loop). */
  onData(cb: (data: Buffer) => void): void;
  /** Once, when the stream is gone, with what broke on the way to the server, if anything did. */
  onClose(cb: (end: TransportEnd) => void): void;
  /** Ends the stream (and whatever carries it); closes are reported as any other. */
  close(): void;
}

/** A Unix socket to a server on this machine. */
export function socketTransport(socket: Socket, name: string): Transport {
  let failed: string | undefined;
  socket.on('error', (e) => (failed = e.message));
  return {
    label: `baton server ${name}`,
    host: undefined,
    write: (data) => void socket.write(data),
    onData: (cb) => void socket.on('data', cb),
    onClose: (cb) =>
      void socket.once('close', () =>
        cb({ unanswered: failed === undefined ? undefined : new BatonError(`lost the baton server: ${failed}`, EXIT.lostServer), lost: failed }),
      ),
    close: () => socket.destroy(),
  };
}
