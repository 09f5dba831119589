import { describe, expect, it } from 'vitest';
import { getCacheDir, getConfigDir, getRuntimeDir, getStateDir } from './paths.js';

describe('paths (#19 point 8)', () => {
  it('ignores relative XDG folders, as the XDG Base Directory spec says', () => {
    const env = { HOME: '/home/u', XDG_STATE_HOME: 'state', XDG_RUNTIME_DIR: 'run', XDG_CONFIG_HOME: './cfg', XDG_CACHE_HOME: 'c' };
    expect(getStateDir(env)).toBe('/home/u/.local/state/recapwrap');
    expect(getRuntimeDir(env)).toBe('/home/u/.local/state/recapwrap/sockets');
    expect(getConfigDir(env)).toBe('/home/u/.config/recapwrap');
    expect(getCacheDir(env)).toBe('/home/u/.cache/recapwrap');
  });
  it('uses absolute XDG folders', () => {
    const env = { HOME: '/home/u', XDG_STATE_HOME: '/s', XDG_RUNTIME_DIR: '/run/user/1' };
    expect(getStateDir(env)).toBe('/s/recapwrap');
    expect(getRuntimeDir(env)).toBe('/run/user/1/recapwrap');
  });
  it('makes a relative RECAPWRAP_STATE_DIR absolute', () => {
    expect(getStateDir({ RECAPWRAP_STATE_DIR: 'st' })).toBe(`${process.cwd()}/st`);
  });
});
