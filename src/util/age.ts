/** Short human ages and folder names for listings (ls, board, resume). Pure. */

/** "42s", "5m", "3h", "2d" since an ISO time; "-" when unknown. */
export function formatSince(iso: string | null | undefined, now: number): string {
  if (!iso) return '-';
  const ms = now - Date.parse(iso);
  if (!Number.isFinite(ms)) return '-';
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  if (s < 86_400) return `${Math.floor(s / 3600)}h`;
  return `${Math.floor(s / 86_400)}d`;
}

export function shortenDir(dir: string, home: string, max = 28): string {
  const d = home && (dir === home || dir.startsWith(home + '/')) ? '~' + dir.slice(home.length) : dir;
  return d.length <= max ? d : '…' + d.slice(d.length - max + 1);
}
