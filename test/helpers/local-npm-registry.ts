// A local npm registry stand-in for install tests: an HTTP server on 127.0.0.1 that serves
// the packument and tarball of each package it is given, packed (`npm pack`, scripts off)
// from a directory where it is installed, e.g. a real CLI in .cache/clis/node_modules.
// Anything else is 404, as a registry that lacks a package answers (npm then skips an
// optional dependency it cannot find, such as another platform's binary). It counts what
// it served so a test can tell a download happened. closedRegistryUrl() is the address of a
// port nothing listens on: a registry that cannot be reached.
// It never reaches the network and never installs anything itself.

import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export interface LocalRegistry {
  /** The registry's URL, with a trailing slash (for npm_config_registry). */
  url: string;
  /** Requests served with 200, by path. */
  served: string[];
  close(): Promise<void>;
}

interface Packed {
  manifest: Record<string, unknown>;
  tarball: Buffer;
  unpackedSize: number;
}

function npmCli(): { command: string; args: string[] } {
  return { command: process.execPath, args: [join(dirname(process.execPath), '../lib/node_modules/npm/bin/npm-cli.js')] };
}

/** `npm pack` of an installed package dir: its manifest and tarball. */
function pack(dir: string, work: string): Packed {
  const npm = npmCli();
  const r = spawnSync(npm.command, [...npm.args, 'pack', dir, '--pack-destination', work, '--ignore-scripts', '--json', '--loglevel=error'], {
    encoding: 'utf8',
    env: { ...process.env, npm_config_update_notifier: 'false' },
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.status !== 0) throw new Error(`npm pack ${dir} failed: ${r.stderr}`);
  const [info] = JSON.parse(r.stdout) as { filename: string; unpackedSize: number }[];
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Record<string, unknown>;
  return { manifest, tarball: readFileSync(join(work, info!.filename)), unpackedSize: info!.unpackedSize };
}

/** Serves `packages` (npm name -> installed dir). Packing a large CLI takes a few seconds. */
export async function startLocalRegistry(packages: Record<string, string>): Promise<LocalRegistry> {
  const work = mkdtempSync(join(tmpdir(), 'baton-registry-'));
  const packed = new Map<string, Packed>();
  for (const [name, dir] of Object.entries(packages)) packed.set(name, pack(dir, work));
  const served: string[] = [];
  let base = '';
  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent((req.url ?? '/').split('?')[0]!);
    const tar = /^\/-\/tarball\/(.+)\.tgz$/.exec(path);
    const name = tar ? tar[1]! : path.slice(1);
    const p = packed.get(name);
    if (!p) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"Not found"}');
      return;
    }
    served.push(path);
    if (tar) {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': p.tarball.length }).end(p.tarball);
      return;
    }
    const version = String(p.manifest.version);
    const dist = {
      tarball: `${base}-/tarball/${encodeURIComponent(name)}.tgz`,
      integrity: `sha512-${createHash('sha512').update(p.tarball).digest('base64')}`,
      shasum: createHash('sha1').update(p.tarball).digest('hex'),
      unpackedSize: p.unpackedSize,
    };
    const body = JSON.stringify({ name, 'dist-tags': { latest: version }, versions: { [version]: { ...p.manifest, _id: `${name}@${version}`, dist } } });
    res.writeHead(200, { 'content-type': 'application/json' }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return {
    url: base,
    served,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      rmSync(work, { recursive: true, force: true });
    },
  };
}

/** The URL of a registry that cannot be reached: a port that was just free and is closed again. */
export async function closedRegistryUrl(): Promise<string> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return `http://127.0.0.1:${port}/`;
}
