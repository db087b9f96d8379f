// The one door to yargs (the command-line parser): the entry point builds its parser from
// here and every command module takes its `Argv` type from here, so a yargs upgrade touches
// this file only.

import yargs from 'yargs';

export default yargs;
export type { Argv } from 'yargs';
