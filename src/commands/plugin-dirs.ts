// The `--plugins DIR` directories given to this command: set once before the command runs
// (by the parser's middleware, or by quick-command.ts), read by whatever loads drivers.
// Its own module so that a client that only relays can know them without loading the
// plugin registry.

let dirs: string[] = [];

/** The `--plugins DIR` directories given to this command. */
export const pluginDirs = (): string[] => [...dirs];

/** Set from the global `--plugins DIR` option before a command runs. */
export function setPluginDirs(list: string[]): void {
  dirs = list;
}
