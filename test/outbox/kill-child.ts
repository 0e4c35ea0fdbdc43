// The crash suites' way of running a child: start it on the platform's files, let it work, kill
// it with SIGKILL, and hand back what it printed. Its stdout is line-buffered by hand (writeSync),
// so every line printed before the kill is there, and at most the last one is partial.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { sourceWorkerScript } from '../../src-main/core/untrusted/source-worker';
import { FS_PLATFORM_ENV, type FsPlatform } from '../support/windows-fs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface KillAfter {
  /** ACK lines to wait for first (a condition: however loaded the machine, the trial did work). */
  acks?: number;
  /** Then this long more, seeded by the test, so the kill lands anywhere in the next call. */
  workMs: number;
}

/** Runs `script args` until READY (and `acks` ACKs), then `workMs`, SIGKILL; its lines after READY. */
export async function runUntilKilled(
  script: string,
  args: string[],
  platform: FsPlatform,
  after: KillAfter,
): Promise<string[]> {
  // Bundled once per test process, so fifty trials do not compile the outbox fifty times.
  const child = spawn(process.execPath, [await sourceWorkerScript(script), ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, [FS_PLATFORM_ENV]: platform },
  });
  let out = '';
  let err = '';
  const closed = new Promise<number | string | null>((resolve) =>
    child.once('close', (code, signal) => resolve(signal ?? code)),
  );
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const acks = out.split('\nACK ').length - 1;
      if (out.startsWith('READY\n') && acks >= (after.acks ?? 0)) resolve();
    });
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
    void closed.then((how) => reject(new Error(`child ended before READY (${how}): ${err}`)));
  });
  await new Promise((resolve) => setTimeout(resolve, after.workMs));
  child.kill('SIGKILL');
  const how = await closed;
  if (how !== 'SIGKILL') throw new Error(`child ended by itself (${how}): ${err}`);
  const lines = out.split('\n');
  lines.pop(); // a partial last line (or the empty string after the final newline)
  return lines.slice(1);
}
