// Watch a file or directory with chokidar even before it exists: chokidar reports nothing
// for a path whose parent is missing, so until the target appears we watch its nearest
// existing ancestor and step down as directories are created. Used by the drop-in loader
// and by log tails. Note that chokidar drops a 'change' arriving within 50 ms of the last
// one for a path; callers re-check shortly after an event (log-tail.ts, loader.ts debounce).
// While the target is missing it looks again a few times after each step it takes (a watch
// just added may not be in place yet), and not at all while nothing happens: a missing
// plugin directory costs an idle baton nothing. Never reads file contents; it only says
// "look again".

import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import { OneShotTimer } from '../lifecycle/index.js';

export type WatchEvent = 'add' | 'addDir' | 'change' | 'unlink' | 'unlinkDir';

export interface PathWatcher {
  /** Resolves once the initial watch is in place. */
  readonly ready: Promise<void>;
  close(): Promise<void>;
}

/** While the target is missing: looks again this long after each step (and after the first watch is ready). */
const LOOK_AGAIN_MS = [300, 1000, 3000];

function filesIn(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => join(dir, e.name));
  } catch {
    return [];
  }
}

function nearestExisting(p: string): string {
  let cur = p;
  while (!existsSync(cur)) {
    const up = dirname(cur);
    if (up === cur) break;
    cur = up;
  }
  return cur;
}

/**
 * Calls `onEvent(event, path)` for changes to `target` (a file), or to entries directly in
 * `target` (a directory, with `dir: true`), including its creation.
 */
export function watchPath(target: string, opts: { dir: boolean }, onEvent: (event: WatchEvent, path: string) => void): PathWatcher {
  const abs = resolve(target);
  const inside = (p: string) => p === abs || (opts.dir && dirname(p) === abs);
  const onTheWay = (p: string) => abs.startsWith(p + sep);
  let at = nearestExisting(abs);
  const watcher: FSWatcher = watch(at, { ignoreInitial: true, depth: 0, persistent: true });

  // Move the watch as close to the target as now exists (down after mkdir, up after rm).
  const descend = () => {
    const next = nearestExisting(abs);
    if (next !== at) {
      at = next;
      watcher.add(next);
    }
  };
  // `mkdir -p a/b/c` can finish before the watch on `a` is in place, so no event ever names
  // `b`: until the target exists, look again a few times after each step down (the new
  // watch's first moments), then trust the events of a watch long in place.
  let missing = !existsSync(abs);
  let looks = 0;
  const lookAgain = new OneShotTimer(
    () => {
      if (!missing) return;
      const before = at;
      descend();
      if (existsSync(abs)) {
        missing = false;
        if (before !== abs) {
          onEvent(opts.dir ? 'addDir' : 'add', abs);
          if (opts.dir) for (const f of filesIn(abs)) onEvent('add', f);
        }
        return;
      }
      if (at !== before) looks = 0;
      if (looks < LOOK_AGAIN_MS.length) lookAgain.soon(LOOK_AGAIN_MS[looks++]!);
    },
    { unref: true },
  );
  const stepped = () => {
    looks = 0;
    if (missing) lookAgain.at(Date.now() + LOOK_AGAIN_MS[looks++]!);
  };

  watcher.on('all', (event, p) => {
    const path = resolve(p);
    if ((event === 'addDir' || event === 'add') && onTheWay(path)) {
      descend();
      // The target itself may have been created together with its parents (mkdir -p), and
      // files in it written before the new watch was in place: report those as added.
      if (existsSync(abs)) {
        missing = false;
        lookAgain.cancel();
        onEvent(opts.dir ? 'addDir' : 'add', abs);
        if (opts.dir) for (const f of filesIn(abs)) onEvent('add', f);
      } else stepped();
      return;
    }
    if (event === 'unlinkDir' && (path === abs || onTheWay(path))) descend();
    if (inside(path)) onEvent(event as WatchEvent, path);
  });
  watcher.on('error', () => {
    // A watch error (EMFILE, a removed directory) must not crash baton; a later event or
    // an explicit re-read recovers.
  });

  const ready = new Promise<void>((r) =>
    watcher.once('ready', () => {
      // What was made before the first watch was in place is found by a look after it.
      stepped();
      r();
    }),
  );
  return {
    ready,
    close: () => {
      lookAgain.dispose();
      return watcher.close();
    },
  };
}
