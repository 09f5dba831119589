/** A terminal screen the project makes itself, so overlay tests run without ../shared's captured agent screens. */

/**
 * An inline agent TUI made here: a header on the first row, colour (truecolor, 256, bold, dim), wide
 * characters and emoji on every row the bar may cover, a line that fills the last column, synchronized
 * frames, its own saved cursor (DECSC) for a status line, and a spinner redrawn in place.
 */
export function madeAgentScreen(cols: number, rows: number): string[] {
  const frames: string[] = ['\x1b[2J\x1b[H', `\x1b[1;38;2;215;119;87m✻ made-agent v1\x1b[0m \x1b[2m~/work/billing 日本語\x1b[0m\r\n`];
  for (let i = 0; i < rows + 6; i++) {
    const tail = i % 3 === 0 ? '読み込み完了 👍 ✅' : i % 3 === 1 ? `\x1b[38;5;${40 + i}mtool\x1b[0m ran npm test (${i})` : 'plain text line';
    frames.push(`\x1b[?2026h\x1b[36m●\x1b[0m line ${i}: ${tail}\r\n\x1b[?2026l`);
  }
  frames.push(`${'='.repeat(cols - 2)}中`); // the last column filled by a wide character: pending wrap
  frames.push(`\r\n\x1b7\x1b[${rows - 1};1H\x1b[7m status: 中文 ok \x1b[0m\x1b8`);
  for (const s of '⠋⠙⠹⠸') frames.push(`\r\x1b[33m${s}\x1b[0m Working… 工作中`);
  frames.push('\r\x1b[2K\x1b[1m>\x1b[0m ');
  return frames;
}
