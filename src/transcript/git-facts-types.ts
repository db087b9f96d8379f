// What the brief says about the working tree, as plain data. The transcript layer only
// defines the shape and the provider interface; src/worktree implements the provider with
// git. Nothing here may run git or touch the disk.

/** A file under the worktree's `.context/` directory (shared notes between agents). */
export interface ContextFile {
  /** Path as it should be shown, e.g. `.context/plan.md`. */
  path: string;
  text: string;
}

export interface GitFacts {
  /** Current branch; absent when HEAD is detached or the directory is not a repository. */
  branch?: string;
  /** The ref `diffStat` was computed against (e.g. `main`). */
  base?: string;
  /** Output of `git diff --stat <base>`, verbatim. */
  diffStat?: string;
  contextFiles?: readonly ContextFile[];
}

export interface GitFactsProvider {
  facts(cwd: string, base?: string): Promise<GitFacts>;
}
