// The demo agent's choices (#18 point 4): a yes answers the question the last turn asked (never an
// unrelated script), its files and session stay in a throwaway project, never in ~/.pi or the folder
// it was started in.
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chooseSessionPath, DEMO_PROJECT_NAME, openWorkspace, pickScript } from './scripted-agent.js';

describe('demo agent', () => {
  it('a yes runs the follow-up of the question just asked, a no runs nothing', () => {
    const fix = pickScript('fix the failing test', undefined);
    expect(fix.final).toMatch(/Shall I run `npm test` again\?$/);
    const yes = pickScript('y', fix.onYes);
    expect(yes.steps.map((s) => s.tool?.args.command)).toEqual(['npm test']);
    expect(yes.final).toMatch(/All 12 tests pass/);
    const flag = pickScript('', undefined);
    expect(pickScript('yes please', flag.onYes).final).toMatch(/README\.md/);
    // No open question: a yes says so and touches nothing (it used to run the --verbose script).
    const stray = pickScript('y', undefined);
    expect(stray.steps).toEqual([]);
    expect(stray.final).toMatch(/no open question/);
    expect(pickScript('no', fix.onYes).steps).toEqual([]);
    // A follow-up asks nothing more, so a second yes is a stray one.
    expect(yes.onYes).toBeUndefined();
  });

  it('works in a throwaway project of its own unless recapwrap demo made one', () => {
    const own = openWorkspace({});
    try {
      expect(own.remove).toBeDefined();
      expect(own.project).toBe(join(own.remove as string, DEMO_PROJECT_NAME));
      expect(existsSync(own.project)).toBe(true);
    } finally {
      rmSync(own.remove as string, { recursive: true, force: true });
    }
    expect(openWorkspace({ RECAPWRAP_DEMO_WORKSPACE: '/tmp/given' })).toEqual({ project: '/tmp/given' });
  });

  it('keeps its session out of ~/.pi unless pi\'s own settings point somewhere', () => {
    expect(chooseSessionPath([], { HOME: '/home/u' }, '/work/proj', '/tmp/ws/myproj')).toMatch(/^\/tmp\/ws\/myproj\/\.pi-agent\/sessions\/.+\.jsonl$/);
    expect(chooseSessionPath([], { PI_CODING_AGENT_DIR: '/tmp/pi' }, '/work/proj', '/tmp/ws/myproj')).toMatch(/^\/tmp\/pi\/sessions\/--work-proj--\/.+\.jsonl$/);
    expect(chooseSessionPath(['--session', 'rel/s.jsonl'], {}, '/work/proj', '/tmp/ws/myproj')).toBe('/work/proj/rel/s.jsonl');
  });
});
