/** The version tmux reports (`tmux -V`): "tmux 3.3a", "tmux next-3.4", or none ("tmux master"). Pure. */

export interface TmuxVersion {
  major: number;
  minor: number;
}

/** The major and minor version in `tmux -V`'s text; undefined for a build without one ("tmux master"). */
export function parseTmuxVersion(text: string): TmuxVersion | undefined {
  const m = /(\d+)\.(\d+)/.exec(text);
  return m ? { major: Number(m[1]), minor: Number(m[2]) } : undefined;
}

/** Whether `version` is `major.minor` or later. */
export function tmuxAtLeast(version: TmuxVersion, major: number, minor: number): boolean {
  return version.major > major || (version.major === major && version.minor >= minor);
}
