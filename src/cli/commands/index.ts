/** Registers every subcommand of the DESIGN contract, and the default wrap action. */
import type { Command } from 'commander';
import { notYetAvailable } from '../not-yet.js';
import { setExitCode } from '../exit-code.js';
import { registerConfig } from './config.js';
import { registerDemo } from './demo.js';
import { registerDoctor } from './doctor.js';
import { registerLs } from './ls.js';
import { registerRecap } from './recap.js';
import { registerResume } from './resume.js';
import { registerStatus } from './status.js';
import { registerTranscript } from './transcript.js';
import { registerWrap } from './wrap.js';

const PLANNED: Array<[name: string, description: string]> = [
  ['board', 'live full-screen view of all wrapped sessions'],
];

export function registerSubcommands(program: Command): void {
  registerWrap(program);
  registerDoctor(program);
  registerConfig(program);
  registerDemo(program);
  registerRecap(program);
  registerStatus(program);
  registerTranscript(program);
  registerLs(program);
  registerResume(program);
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
