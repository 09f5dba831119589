/** `recapwrap doctor`: thin layer over src/app/doctor.ts. */
import type { Command } from 'commander';
import type { DoctorOptions } from '../../app/doctor.js';
import { stringifyJsonSafely } from '../../util/sanitize.js';
import { setExitCode } from '../exit-code.js';

export function registerDoctor(program: Command): void {
  program
    .command('doctor')
    .description('check terminal and tmux focus support, agents, generators and the state folder; print fixes')
    .option('--no-interactive', 'do not ask you to switch focus to test focus reporting')
    .option('--endpoints', 'also contact the configured model endpoint (network)', false)
    .option('--json', 'print the checks as JSON', false)
    .action(async function (this: Command, options: DoctorOptions) {
      const { runDoctor, renderDoctorReport } = await import('../../app/doctor.js');
      const { results, code } = await runDoctor(options);
      process.stdout.write(options.json ? stringifyJsonSafely(results, 2) + '\n' : renderDoctorReport(results, process.stdout.isTTY ? process.stdout.columns || 80 : Number.POSITIVE_INFINITY) + '\n');
      setExitCode(this, code);
    });
}
