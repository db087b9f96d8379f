// The client's garbage collection kept out of the keystrokes it relays. Its heap stays a few
// MB (it draws nothing; it passes bytes), yet V8's memory reducer runs full collections on it
// some seconds after it starts, to give back memory it barely holds: 4-10 ms pauses on this
// machine, each one between a key and its echo if the user types then (npm run bench -- pane,
// every hop of a key stamped: the slowest echoes of a run waited on them). Turned off for the
// client's process only; the server, whose heap does grow and shrink, keeps it.

import { setFlagsFromString } from 'node:v8';

let done = false;

export function quietClientGc(): void {
  if (done) return;
  done = true;
  // Set after start-up it holds: with it the client ran no full collection in two bench runs,
  // against two in each of four runs without (scavenges of ~1 ms remain).
  setFlagsFromString('--no-memory-reducer-for-small-heaps');
}
