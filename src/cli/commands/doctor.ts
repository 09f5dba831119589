/** `recapwrap doctor`: thin layer over src/app/doctor.ts. */
import type { Command } from 'commander';
import {
  checkAgents, checkEndpoint, checkGenerators, checkQwenRecap, checkStateDir, checkTmux, createDoctorDeps,
  doctorExitCode, probeFocusReporting, renderDoctorReport, type CheckResult,
} from '../../app/doctor.js';
import { setExitCode } from '../exit-code.js';

export interface DoctorOptions {
  interactive: boolean;
  endpoints: boolean;
  json: boolean;
}

export async function runDoctor(options: DoctorOptions, env = process.env): Promise<{ results: CheckResult[]; code: number }> {
  const deps = createDoctorDeps(env);
  const results: CheckResult[] = [];
  const tty = Boolean(process.stdin.isTTY && process.stdout.isTTY);
  if (options.interactive && tty) results.push(await probeFocusReporting(15_000));
  else results.push({ name: 'terminal focus reporting', status: 'skip', detail: tty ? 'not probed (--no-interactive)' : 'not probed (not a terminal)' });
  results.push(...(await checkTmux(deps)));
  results.push(...checkAgents(env));
  const qwen = checkQwenRecap(env);
  if (qwen) results.push(qwen);
  results.push(...checkGenerators(env));
  if (options.endpoints) {
    const endpoint = await checkEndpoint(env);
    if (endpoint) results.push(endpoint);
  }
  results.push(checkStateDir(env));
  return { results, code: doctorExitCode(results) };
}

export function registerDoctor(program: Command): void {
  program
    .command('doctor')
    .description('check terminal and tmux focus support, agents, generators and the state folder; print fixes')
    .option('--no-interactive', 'do not ask you to switch focus to test focus reporting')
    .option('--endpoints', 'also contact the configured model endpoint (network)', false)
    .option('--json', 'print the checks as JSON', false)
    .action(async function (this: Command, options: DoctorOptions) {
      const { results, code } = await runDoctor(options);
      process.stdout.write(options.json ? JSON.stringify(results, null, 2) + '\n' : renderDoctorReport(results) + '\n');
      setExitCode(this, code);
    });
}
