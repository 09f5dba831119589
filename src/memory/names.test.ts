import { describe, expect, it } from 'vitest';
import { baseName, kebab, normalizeUserName, uniqueName } from './names.js';

describe('session names', () => {
  it('is the project and the task words, lowercase kebab', () => {
    expect(baseName({ project: 'recapwrap', task: 'Please fix the login redirect bug in the OAuth flow', files: [], commands: [] })).toBe('recapwrap-fix-login-redirect');
  });
  it('drops accents and stays short', () => {
    expect(kebab('Café Déjà Vu')).toBe('cafe-deja-vu');
    expect(baseName({ project: 'a-very-long-project-name-indeed', task: 'implement incremental indexing everywhere tonight', files: [], commands: [] }).length).toBeLessThanOrEqual(40);
  });
  it('takes files and commands when the task is not in a Latin script', () => {
    expect(baseName({ project: 'shop', task: '修复登录页面的错误', files: ['src/login-page.tsx'], commands: ['npm test'] })).toBe('shop-login-page-npm-test');
  });
  it('falls back to "session" when nothing is usable', () => {
    expect(baseName({ project: '', task: '你好', files: [], commands: [] })).toBe('session');
  });
  it('is unique per folder', () => {
    const taken = new Set(['web-fix', 'web-fix-2']);
    expect(uniqueName('web-fix', (n) => taken.has(n))).toBe('web-fix-3');
    expect(uniqueName('web-new', (n) => taken.has(n))).toBe('web-new');
  });
  it('normalizes a name a user typed', () => {
    expect(normalizeUserName('  My Login Fix! ')).toBe('my-login-fix');
    expect(normalizeUserName('***')).toBeUndefined();
  });
});
