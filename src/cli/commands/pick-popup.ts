/**
 * `recapwrap pick-popup` (hidden): what a wrapper's pick key runs in a tmux popup (app/wrap/picker-popup.ts);
 * not for typing by hand. The work is in app/picker/popup-picker.ts, loaded when it runs.
 */
import type { Command } from 'commander';
import { setExitCode } from '../exit-code.js';

export function registerPickPopup(program: Command): void {
  program
    .command('pick-popup', { hidden: true })
    .description('the reference picker in a tmux popup, for a wrapper (run by its pick key)')
    .requiredOption('--socket <path>', "the wrapper's control socket")
    .requiredOption('--token <hex>', 'the one-time token the wrapper gave')
    .requiredOption('--wrapper <pid>', "the wrapper's pid (the popup closes when it exits)")
    .action(async function (this: Command, options: { socket: string; token: string; wrapper: string }) {
      const wrapperPid = Number(options.wrapper);
      if (!Number.isInteger(wrapperPid) || wrapperPid <= 0) {
        process.stderr.write(`recapwrap: Expected --wrapper to be a pid, got ${JSON.stringify(options.wrapper)}\n`);
        return setExitCode(this, 2);
      }
      const [{ runPopupPicker }, { resolveConfig }, { debugLog }] = await Promise.all([
        import('../../app/picker/popup-picker.js'),
        import('../../config/load.js'),
        import('../../util/debug-log.js'),
      ]);
      const env = process.env;
      const cwd = process.cwd();
      const { options: resolved } = resolveConfig({ env, cwd });
      const code = await runPopupPicker({ socket: options.socket, token: options.token, wrapperPid, env, options: resolved, cwd, stdin: process.stdin, stdout: process.stdout, log: debugLog });
      setExitCode(this, code);
    });
}
