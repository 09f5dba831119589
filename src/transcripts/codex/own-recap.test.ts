import { describe, expect, it } from 'vitest';
import { codexAutoRecapSetting } from './own-recap.js';

describe("Codex's tui.auto_recap in config.toml (#34)", () => {
  it('reads it under [tui] or dotted at the top level; other sections and comments do not count', () => {
    expect(codexAutoRecapSetting('model = "x"\n[tui]\nauto_recap = false\n')).toBe(false);
    expect(codexAutoRecapSetting('[tui]\n  auto_recap=true # yes\n')).toBe(true);
    expect(codexAutoRecapSetting('tui.auto_recap = false\n[model_providers.fake]\nname = "f"\n')).toBe(false);
    expect(codexAutoRecapSetting('[other]\nauto_recap = false\n# [tui]\n# auto_recap = false\n')).toBeUndefined();
    expect(codexAutoRecapSetting('')).toBeUndefined();
  });
});
