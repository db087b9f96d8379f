// Small, private file systems for the tests of full disks and read-only directories,
// without filling or remounting anything real: a tmpfs of a few hundred KiB mounted on a
// test's own temp dir (mount(8) as root), remounted read-only on demand, filled to the
// last byte, and unmounted at the end; and a child run as `nobody` (setpriv) where the
// file modes must count (root ignores them). Where the machine cannot do this (not
// root, no mount in a container), `smallDiskProblem()` says why, for the suite to skip
// with that reason printed.
// It must never mount, fill or unmount anything outside the directory it was given.
import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, statSync, writeSync, ftruncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const run = (cmd: string, args: string[]) => execFileSync(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });

export class SmallDisk {
  #mounted = true;

  private constructor(readonly dir: string) {}

  /** A tmpfs of `kib` KiB mounted on a new temp dir. */
  static mount(kib: number): SmallDisk {
    const dir = mkdtempSync(join(tmpdir(), 'baton-small-disk-'));
    try {
      run('mount', ['-t', 'tmpfs', '-o', `size=${kib}k,mode=0755`, 'tmpfs', dir]);
    } catch (e) {
      rmSync(dir, { recursive: true, force: true });
      throw e;
    }
    return new SmallDisk(dir);
  }

  readOnly(): void {
    run('mount', ['-o', 'remount,ro', this.dir]);
  }

  readWrite(): void {
    run('mount', ['-o', 'remount,rw', this.dir]);
  }

  /** Fills the disk to the last byte with `fill`; returns its size. */
  fill(): number {
    const path = join(this.dir, 'fill');
    const fd = openSync(path, 'a');
    const chunk = Buffer.alloc(4096, 0x78);
    try {
      for (;;) {
        try {
          writeSync(fd, chunk);
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code === 'ENOSPC') break;
          throw e;
        }
      }
      // The last partial page may still hold a few bytes: fill those too.
      for (;;) {
        try {
          writeSync(fd, chunk, 0, 1);
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code === 'ENOSPC') break;
          throw e;
        }
      }
    } finally {
      closeSync(fd);
    }
    return statSync(path).size;
  }

  /** Frees `bytes` of the fill (all of it without an argument). */
  free(bytes?: number): void {
    const path = join(this.dir, 'fill');
    const size = statSync(path).size;
    const fd = openSync(path, 'r+');
    try {
      ftruncateSync(fd, bytes === undefined ? 0 : Math.max(0, size - bytes));
    } finally {
      closeSync(fd);
    }
  }

  unmount(): void {
    if (!this.#mounted) return;
    this.#mounted = false;
    try {
      run('umount', [this.dir]);
    } catch {
      // Busy (a process still has a file open there): detach now, freed once it lets go.
      run('umount', ['-l', this.dir]);
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Why this machine cannot give the tests a small disk (undefined: it can). */
export function smallDiskProblem(): string | undefined {
  if (process.getuid?.() !== 0) return 'mounting a small tmpfs needs root';
  let disk: SmallDisk | undefined;
  try {
    disk = SmallDisk.mount(64);
    mkdirSync(join(disk.dir, 'probe'));
    disk.readOnly();
    disk.readWrite();
  } catch (e) {
    return `cannot mount and remount a tmpfs here: ${(e as Error).message.split('\n')[0]}`;
  } finally {
    try {
      disk?.unmount();
    } catch {
      // reported by the probe's own failure above
    }
  }
  return undefined;
}

/** argv prefix that runs a command as the unprivileged `nobody`, or why it cannot. */
export function asNobody(): { argv: string[] } | { problem: string } {
  if (process.getuid?.() !== 0) return { problem: 'switching to nobody needs root' };
  const argv = ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups'];
  try {
    const id = run(argv[0]!, [...argv.slice(1), 'id', '-u']).trim();
    if (id !== '65534') return { problem: `setpriv ran as uid ${id}, not nobody` };
  } catch (e) {
    return { problem: `setpriv is not usable here: ${(e as Error).message.split('\n')[0]}` };
  }
  return { argv };
}
