/** Registers every subcommand of the DESIGN contract, and the default wrap action. */
import type { Command } from 'commander';
import { notYetAvailable } from '../not-yet.js';
import { setExitCode } from '../main.js';
import { registerConfig } from './config.js';
import { registerDemo } from './demo.js';
import { registerDoctor } from './doctor.js';
import { registerWrap } from './wrap.js';

const PLANNED: Array<[name: string, description: string]> = [
  ['recap', 'one recap now, for a session file or the newest session of an agent in a directory'],
  ['transcript', 'the normalized events of a session file'],
  ['status', 'the latest recap line of a live wrapper, for status lines'],
  ['ls', 'all live wrapped sessions'],
  ['board', 'live full-screen view of all wrapped sessions'],
  ['resume', 'past sessions of this directory with their recaps; relaunch one'],
];

export function registerSubcommands(program: Command): void {
  registerWrap(program);
  registerDoctor(program);
  registerConfig(program);
  registerDemo(program);
  for (const [name, description] of PLANNED) {
    program
      .command(name)
      .description(description)
      .allowUnknownOption()
      .allowExcessArguments()
      .action(function (this: Command) {
        setExitCode(this, notYetAvailable(name));
      });
  }
}
