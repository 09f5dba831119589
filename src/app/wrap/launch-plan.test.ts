import { describe, expect, it } from 'vitest';
import { planRecap } from './launch-plan.js';

const ctx = { cwd: '/work/proj', env: { HOME: '/home/u' } };

describe('planRecap pins only the agent itself (#18 point 6)', () => {
  it('pins pi by its own executable, named or detected', async () => {
    for (const input of [{ command: 'pi' }, { command: '/usr/local/bin/pi', agent: 'pi' as const }]) {
      const plan = await planRecap({ ...ctx, args: ['--model', 'x'], ...input });
      expect(plan.launch.args[0]).toBe('--session');
      expect(plan.launch.pinnedFile).toMatch(/^\/home\/u\/\.pi\/agent\/sessions\/--work-proj--\//);
    }
  });
  it('gives another command (node, a script) exactly its own arguments, still reading pi transcripts', async () => {
    const plan = await planRecap({ ...ctx, command: 'node', args: ['script.js', '--flag'], agent: 'pi' });
    expect(plan.launch).toEqual({ args: ['script.js', '--flag'], resume: false });
    expect(plan.agent).toBe('pi');
    expect(plan.adapter?.id).toBe('pi');
    const qwen = await planRecap({ ...ctx, command: './my-qwen.sh', args: [], agent: 'qwen' });
    expect(qwen.launch).toEqual({ args: [], resume: false });
  });
});
