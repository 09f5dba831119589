import { describe, expect, it } from 'vitest';
import { callFolder, emptyEvidence, folderLabel, LABEL_ORDER, noteEvidence, noteFolder, noteWritten, projectLabel, shortLabel, userNames, workFolder } from './project-label.js';

type Step = { name: string; args: string; command?: string; paths: readonly string[]; result?: string; ok?: boolean };
const sh = (command: string, result: string, args = ''): Step => ({ name: 'bash', args, command, paths: [], result, ok: true });
const read = (path: string, result: string): Step => ({ name: 'Read', args: JSON.stringify({ file_path: path }), paths: [path], result, ok: true });

function evidence(steps: Step[], cwd?: string) {
  const ev = emptyEvidence();
  for (const s of steps) {
    noteFolder(ev, s, cwd);
    noteWritten(ev, s, cwd);
    noteEvidence(ev, s, cwd);
  }
  return ev;
}

describe('project label: the order of trust', () => {
  it('is written down: user, remote, manifest, README, folder', () => {
    expect(LABEL_ORDER).toEqual(['user', 'remote', 'manifest', 'readme', 'folder']);
  });

  const all = [
    sh('git remote -v', 'origin\thttps://github.com/acme/billing-service.git (fetch)\norigin\thttps://github.com/acme/billing-service.git (push)'),
    read('/home/ana/work/billing/package.json', '     1→{\n     2→  "name": "@acme/billing-core",\n'),
    read('/home/ana/work/billing/README.md', '     1→# Billing Engine\n'),
  ];

  it('takes the git remote first, then the manifest, then the README, then the folder', () => {
    const cwd = '/home/ana/work/billing';
    expect(projectLabel(evidence(all, cwd), cwd, [])).toEqual({ label: 'billing-service', source: 'remote' });
    expect(projectLabel(evidence(all.slice(1), cwd), cwd, [])).toEqual({ label: 'billing-core', source: 'manifest' });
    expect(projectLabel(evidence(all.slice(2), cwd), cwd, [])).toEqual({ label: 'Billing Engine', source: 'readme' });
    expect(projectLabel(evidence([], cwd), cwd, [])).toEqual({ label: 'billing', source: 'folder' });
  });

  it('a candidate the user names in their own words wins (not from a pasted path, not a README title)', () => {
    const cwd = '/home/ana/work/billing';
    expect(projectLabel(evidence(all, cwd), cwd, ['why does billing-core crash on refunds?'])).toEqual({ label: 'billing-core', source: 'user' });
    expect(projectLabel(evidence(all, cwd), cwd, ['look at /home/ana/work/billing-core/x.ts'])?.source).toBe('remote');
    expect(userNames('raveera-web-mvp', ['how does Raveera register users?'])).toBe(true);
    expect(userNames('will-it-rain', ['make will it rain faster'])).toBe(true);
    expect(userNames('app', ['the app crashes'])).toBe(false);
  });

  it('no label from a home folder, a generic folder or a tool’s hidden folder', () => {
    expect(projectLabel(evidence([]), '/home/ana', [])).toBeUndefined();
    expect(projectLabel(evidence([]), 'C:\\Users\\ana', [])).toBeUndefined();
    expect(projectLabel(evidence([]), '/Users/ana/Desktop/new', [])).toBeUndefined();
    expect(projectLabel(evidence([read('/home/ana/.claude/skills/grant/README.md', '# Grant Skill')]), '/home/ana', [])).toBeUndefined();
  });

  it('follows the agent into the repository it moved to (workdir, cd, git -C), with that repository’s evidence', () => {
    const cwd = '/Users/ana';
    const steps = [
      read('/Users/ana/Documents/old/Cargo.toml', '[package]\nname = "cfo_oracle"\n'),
      sh('git -C /Users/ana/Developer/trezo-ai status --short', '## main'),
      { name: 'exec_command', args: '{"cmd":"ls","workdir":"/Users/ana/Developer/trezo-ai"}', paths: [] },
    ];
    expect(workFolder(evidence(steps, cwd), cwd)).toBe('/Users/ana/Developer/trezo-ai');
    expect(projectLabel(evidence(steps, cwd), cwd, [])).toEqual({ label: 'trezo-ai', source: 'folder' });
    expect(callFolder('', 'cd "/srv/my app" && npm test', '/x')).toBe('/srv/my app');
    expect(callFolder('', 'cd web && npm run build', '/srv/shop')).toBe('/srv/shop/web');
  });

  it('reads names from manifests and READMEs the agent writes (a patch or a write tool)', () => {
    const patch = { name: 'apply_patch', args: '"*** Begin Patch\\n*** Add File: README.md\\n+# EdgeRunner\\n+\\n+Fast engine.\\n*** End Patch"', paths: [] };
    // A generic folder (`new`) names nothing, the README the agent wrote at its root does.
    expect(projectLabel(evidence([patch], '/Users/ana/Desktop/new'), '/Users/ana/Desktop/new', [])).toEqual({ label: 'EdgeRunner', source: 'readme' });
    const ev = emptyEvidence();
    noteWritten(ev, patch, '/srv/engine');
    expect(ev.found).toEqual([{ source: 'readme', value: 'EdgeRunner', folder: '/srv/engine' }]);
    const write = { name: 'create_or_update_file', args: 'path="README.md" content="# DashStack Admin"', paths: [] };
    expect(projectLabel(evidence([write]), undefined, [])).toEqual({ label: 'DashStack Admin', source: 'readme' });
  });

  it('prefers the project root’s own evidence over a subfolder’s', () => {
    const cwd = '/srv/edge';
    const steps = [read('/srv/edge/web/package.json', '{"name": "edge-web"}'), read('/srv/edge/README.md', '# EdgeRunner')];
    expect(projectLabel(evidence(steps, cwd), cwd, [])).toEqual({ label: 'EdgeRunner', source: 'readme' });
  });
});

describe('folderLabel: a generic folder gives way to its parent', () => {
  it('walks up from `web`, `services`, `src` but never past a home or a generic parent', () => {
    expect(folderLabel('/srv/shop/web')).toBe('shop');
    expect(folderLabel('/home/ana/Axe/app/services')).toBe('Axe');
    expect(folderLabel('/Users/ana/Desktop/new')).toBeUndefined();
    expect(folderLabel('/home/ana/web')).toBeUndefined();
    expect(folderLabel('/home/ana/billing')).toBe('billing');
  });

  it('a relative folder with no session folder to anchor it is not a project', () => {
    const ev = emptyEvidence();
    noteFolder(ev, { args: '{"dir_path":"feature_rpc/src/main/services"}' }, undefined);
    expect(ev.folders).toEqual([]);
  });
});

describe('shortLabel: at most 16 cells, no ids, no scopes', () => {
  it('cuts at a word or dash boundary and drops hashes', () => {
    expect(shortLabel('posthog-impact-dashboard')).toBe('posthog-impact');
    expect(shortLabel('figma-eval-85611489-0cec-4a77-b02f-c74703a9b30f-gemini_cli')).toBe('figma-eval');
    expect(shortLabel('beam_')).toBe('beam');
    expect(shortLabel('@kimchi-dev/cli')).toBe('kimchi-dev');
    expect(shortLabel('@acme/billing-core')).toBe('billing-core');
    expect(shortLabel('Coordination Failure Oracle (CFO) PoC')).toBe('CFO');
    expect(shortLabel('app')).toBeUndefined();
    expect(shortLabel('2026-05-01')).toBeUndefined();
    expect(shortLabel('v2')).toBeUndefined();
    expect(shortLabel('x1')).toBeUndefined();
  });
});
