// Where commands write and what they read of their surroundings, so a test can run a
// command in-process and read what it printed.

export interface Io {
  out(text: string): void;
  err(text: string): void;
  env: NodeJS.ProcessEnv;
  cwd: string;
  columns?: number;
}

export function processIo(): Io {
  return {
    out: (t) => void process.stdout.write(t),
    err: (t) => void process.stderr.write(t),
    env: process.env,
    cwd: process.cwd(),
    columns: process.stdout.columns,
  };
}

/** An Io that keeps what was printed, for tests and for callers that want the text. */
export function bufferIo(env: NodeJS.ProcessEnv, cwd: string): Io & { stdout: () => string; stderr: () => string } {
  let out = '';
  let err = '';
  return {
    out: (t) => void (out += t),
    err: (t) => void (err += t),
    env,
    cwd,
    columns: 100,
    stdout: () => out,
    stderr: () => err,
  };
}
