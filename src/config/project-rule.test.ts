// The trust rule's pure parts (#40 item 1): which keys a project file may set, and whether a file may be
// read at all, from stat facts alone.
import { describe, expect, it } from 'vitest';
import { FILE_KEYS, OPTIONS, isProjectSafeKey } from './options-table.js';
import { judgeConfigFile, splitProjectKeys, type ConfigFileFacts } from './project-rule.js';

describe('which keys a project file may set', () => {
  it('is the options table: display and timing yes; commands, connections, hosts, URLs, models, generators, folders no', () => {
    const safe = OPTIONS.filter((o) => o.project).map((o) => o.name);
    expect(safe).toEqual(['awaySeconds', 'idleSeconds', 'display', 'position', 'barRows', 'hotkey', 'pickKey', 'focus', 'agentRecaps', 'notifyMinSeconds', 'draftDebounceMs', 'generatorTimeoutSeconds', 'hostTimeoutSeconds']);
    for (const key of ['hosts', 'notify', 'generator', 'pastGenerator', 'model', 'openaiBaseUrl', 'openaiModel', 'anthropicBaseUrl', 'anthropicModel', 'llm', 'memory', 'memoryFolders', 'tmuxFocus']) {
      expect(isProjectSafeKey(key), key).toBe(false);
    }
    expect(FILE_KEYS.map((k) => [k.name, k.project])).toEqual([['hosts', false]]);
  });

  it('takes the safe keys of an untrusted file, every key of a trusted one, and says why the rest were held', () => {
    const keys = ['awaySeconds', 'hosts', 'notify', 'display', 'pastGenerator', 'openaiBaseUrl', 'colour'];
    expect(splitProjectKeys(keys, 'none')).toEqual({
      take: ['awaySeconds', 'display', 'colour'],
      held: ['hosts', 'notify', 'pastGenerator', 'openaiBaseUrl'].map((key) => ({ key, why: 'untrusted key' })),
    });
    expect(splitProjectKeys(keys, 'trusted')).toEqual({ take: keys, held: [] });
    expect(splitProjectKeys(keys, 'changed').held.map((h) => h.why)).toEqual(Array(4).fill('changed since trusted'));
  });

  it('a file reached through a link takes display and timing keys only, whatever the trust list says', () => {
    const keys = ['awaySeconds', 'hosts', 'notify'];
    expect(splitProjectKeys(keys, 'link')).toEqual({ take: ['awaySeconds'], held: [{ key: 'hosts', why: 'a link' }, { key: 'notify', why: 'a link' }] });
  });
});

describe('whether a config file may be read (stat facts only)', () => {
  const me = 1000;
  const facts = (over: { uid?: number; mode?: number; isFile?: boolean; folderMode?: number; runAs?: number | undefined }): ConfigFileFacts => ({
    path: '/p/.recapwrap.json',
    file: { uid: over.uid ?? me, mode: over.mode ?? 0o100644, isFile: over.isFile ?? true },
    folders: [{ path: '/p', uid: me, mode: over.folderMode ?? 0o40755 }],
    uid: 'runAs' in over ? over.runAs : me,
  });

  it('reads a file of yours that only you may write, in a folder not everyone may write to', () => {
    expect(judgeConfigFile(facts({}), 'project')).toEqual({ ok: true });
    expect(judgeConfigFile(facts({ mode: 0o100600, folderMode: 0o40775 }), 'project')).toEqual({ ok: true });
  });

  it("refuses another user's file, root running on it included", () => {
    expect(judgeConfigFile(facts({ uid: 1001 }), 'project')).toMatchObject({ ok: false, reason: 'owner', message: '/p/.recapwrap.json belongs to uid 1001, not to you (uid 1000)' });
    expect(judgeConfigFile(facts({ uid: 1000, runAs: 0 }), 'project')).toMatchObject({ ok: false, reason: 'owner' });
    expect(judgeConfigFile(facts({ uid: 1000, runAs: 0 }), 'own')).toMatchObject({ ok: false, reason: 'owner' });
    // No uids (Windows): ownership cannot be judged, the modes still are.
    expect(judgeConfigFile(facts({ uid: 5, runAs: undefined }), 'project')).toEqual({ ok: true });
  });

  it('refuses a project file group or others may write (the global file: others only, as umask 002 makes it group-writable)', () => {
    expect(judgeConfigFile(facts({ mode: 0o100666 }), 'project')).toMatchObject({ ok: false, reason: 'permissions', message: expect.stringContaining('writable by group and others (mode 666;') });
    expect(judgeConfigFile(facts({ mode: 0o100664 }), 'project')).toMatchObject({ ok: false, reason: 'permissions', message: expect.stringContaining('writable by its group') });
    expect(judgeConfigFile(facts({ mode: 0o100646 }), 'project')).toMatchObject({ ok: false, reason: 'permissions', message: expect.stringContaining('`chmod go-w /p/.recapwrap.json`') });
    expect(judgeConfigFile(facts({ mode: 0o100664 }), 'own')).toEqual({ ok: true });
    expect(judgeConfigFile(facts({ mode: 0o100666 }), 'own')).toMatchObject({ ok: false, reason: 'permissions' });
  });

  it('refuses any file in a world-writable folder, sticky bit or not (/tmp)', () => {
    expect(judgeConfigFile(facts({ folderMode: 0o40777 }), 'project')).toMatchObject({ ok: false, reason: 'folder', message: '/p/.recapwrap.json lies in /p, which everyone may write to (mode 777)' });
    expect(judgeConfigFile(facts({ folderMode: 0o41777 }), 'project')).toMatchObject({ ok: false, reason: 'folder', message: expect.stringContaining('(mode 1777)') });
    expect(judgeConfigFile(facts({ folderMode: 0o41777 }), 'own')).toMatchObject({ ok: false, reason: 'folder' });
    // A link: the folder it was found in and the one it lies in are both judged.
    const linked = { ...facts({}), folders: [{ path: '/p', uid: me, mode: 0o40755 }, { path: '/tmp', uid: 0, mode: 0o41777 }] };
    expect(judgeConfigFile(linked, 'project')).toMatchObject({ ok: false, reason: 'folder', message: expect.stringContaining('lies in /tmp') });
  });

  it('refuses what is no regular file (a FIFO, a folder)', () => {
    expect(judgeConfigFile(facts({ isFile: false }), 'project')).toMatchObject({ ok: false, reason: 'not a file' });
  });
});
