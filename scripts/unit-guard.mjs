// Loaded before the unit tier's suites (scripts/test.mjs runs them in one process): the
// unit tier promises no child process, no PTY and no network, so each of those throws
// here, naming what the suite tried. A suite that needs one belongs in test/integration.
import childProcess from 'node:child_process';
import net from 'node:net';
import Module, { syncBuiltinESMExports } from 'node:module';

const refuse = (what) => {
  throw new Error(`unit tier: ${what} is not allowed here (no child process, PTY or network); move the suite to test/integration`);
};
for (const name of ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork']) {
  childProcess[name] = (file) => refuse(`child_process.${name}(${JSON.stringify(String(file))})`);
}
const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function (...args) {
  const o = args[0];
  // A path is a local socket or pipe (tsx's own IPC); a port is the network.
  const tcp = typeof o === 'number' || (o && typeof o === 'object' && !Array.isArray(o) && o.path === undefined && o.port !== undefined);
  if (tcp) refuse('a TCP connection');
  return connect.apply(this, args);
};
net.Server.prototype.listen = () => {
  refuse('a listening socket');
};
syncBuiltinESMExports();
const load = Module._load;
Module._load = function (request, ...rest) {
  if (/(^|\/)node-pty(\/|$)/.test(request)) refuse('node-pty');
  return load.call(this, request, ...rest);
};
