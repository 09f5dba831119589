/** Registers every subcommand of the DESIGN contract, and the default wrap action. */
import type { Command } from 'commander';
import { registerBoard } from './board.js';
import { registerCompletion } from './completion.js';
import { registerConfig } from './config.js';
import { registerDemo } from './demo.js';
import { registerDoctor } from './doctor.js';
import { registerLs } from './ls.js';
import { registerMcp } from './mcp.js';
import { registerMemory } from './memory.js';
import { registerNext } from './next.js';
import { registerPickPopup } from './pick-popup.js';
import { registerRead } from './read.js';
import { registerRecap } from './recap.js';
import { registerResume } from './resume.js';
import { registerStatus } from './status.js';
import { registerTranscript } from './transcript.js';
import { registerWrap } from './wrap.js';

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
  registerBoard(program);
  registerNext(program);
  registerMemory(program);
  registerRead(program);
  registerMcp(program);
  registerCompletion(program);
  registerPickPopup(program);
}
