// A second process holding the index open: a write transaction left open (the write lock held, a row
// written but not committed), a read transaction (a snapshot kept), or a refresh announced as reading
// session files (its own process id in `refreshes`, beat `sql` ms from now), until the test ends it. Real
// better-sqlite3 in a real child process, as another recapwrap would be.
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const SQLITE = require.resolve('better-sqlite3');

const SCRIPT = `
const Database = require(process.argv[1]);
const db = new Database(process.argv[2], { timeout: 5000 });
const mode = process.argv[3];
if (mode === 'write') {
  db.exec('BEGIN IMMEDIATE');
  db.prepare(process.argv[4]).run();
} else if (mode === 'announce') {
  db.prepare('INSERT INTO refreshes(pid, beat) VALUES (?, ?)').run(process.pid, Date.now() + Number(process.argv[4]));
} else {
  db.exec('BEGIN');
  db.prepare('SELECT count(*) FROM sessions').get();
}
process.stdout.write('held\\n');
const releaseAfter = Number(process.argv[5]);
if (releaseAfter >= 0) setTimeout(() => { db.exec('ROLLBACK'); process.stdout.write('released\\n'); }, releaseAfter);
process.stdin.on('data', () => {});
process.stdin.on('end', () => {
  try { db.exec('ROLLBACK'); } catch {}
  if (mode === 'announce') db.prepare('DELETE FROM refreshes WHERE pid = ?').run(process.pid);
  db.close();
  process.exit(0);
});
`;

export interface Holder { child: ChildProcess; release(): Promise<void> }

/**
 * Start a process that holds `file` in a write (`sql` run, not committed) or read transaction, or that
 * announces a refresh (`sql`: its beat's offset from now, in ms); resolves once it holds it.
 * `releaseAfterMs`: the transaction is rolled back that long after (the process stays until released).
 */
export function holdIndex(file: string, mode: 'write' | 'read' | 'announce', sql = 'SELECT 1', releaseAfterMs = -1): Promise<Holder> {
  const child = spawn(process.execPath, ['-e', SCRIPT, SQLITE, file, mode, sql, String(releaseAfterMs)], { stdio: ['pipe', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the holder exited (${code}) before holding the index`)));
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      if (!out.includes('held')) return;
      child.removeAllListeners('exit');
      resolve({
        child,
        release: () => new Promise<void>((done) => {
          if (child.exitCode !== null) return done();
          child.once('exit', () => done());
          child.stdin?.end();
        }),
      });
    });
  });
}
