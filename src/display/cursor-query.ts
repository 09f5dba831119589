/**
 * Asks the terminal where the cursor is (DSR 6 → CPR `ESC[row;colR`) before the agent starts, so the
 * overlay knows which rows hold older output. Anything else typed meanwhile is put back on stdin for
 * the agent. No answer within the timeout means "unknown" (the overlay then waits for a full clear).
 */

/** Device Status Report 6: report the cursor position. */
const REPORT_CURSOR_POSITION = '\x1b[6n';
const CPR = /\x1b\[(\d+);(\d+)R/;
export const CURSOR_QUERY_TIMEOUT_MS = 150;

export function queryCursorPosition(
  stdin: NodeJS.ReadStream,
  stdout: NodeJS.WriteStream,
  timeoutMs = CURSOR_QUERY_TIMEOUT_MS,
): Promise<{ row: number; col: number } | undefined> {
  if (!stdin.isTTY || !stdout.isTTY) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const wasRaw = stdin.isRaw;
    let buffer = Buffer.alloc(0);
    const finish = (pos: { row: number; col: number } | undefined, rest: Buffer) => {
      clearTimeout(timer);
      stdin.off('data', onData);
      stdin.pause();
      if (!wasRaw) stdin.setRawMode(false);
      if (rest.length > 0) stdin.unshift(rest);
      resolve(pos);
    };
    const onData = (data: Buffer) => {
      buffer = Buffer.concat([buffer, data]);
      const text = buffer.toString('latin1');
      const m = CPR.exec(text);
      if (!m) return;
      const rest = Buffer.from(text.slice(0, m.index) + text.slice(m.index + m[0].length), 'latin1');
      finish({ row: Number(m[1]) - 1, col: Number(m[2]) - 1 }, rest);
    };
    const timer = setTimeout(() => finish(undefined, buffer), timeoutMs);
    stdin.setRawMode(true);
    stdin.on('data', onData);
    stdin.resume();
    stdout.write(REPORT_CURSOR_POSITION);
  });
}
