// `npm start` where Electron's binary is missing and its download host cannot be reached: one
// line says so, and the same app opens in Chromium through the browser runner (here headless,
// writing a screenshot of the demo account). The unreachable host is a mirror on a closed
// loopback port and the binary's place an empty dir, so this holds on any machine.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const REPO = resolve(import.meta.dirname, '../..');
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function run(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(command, args, { cwd: REPO, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

describe('npm start without an Electron binary', () => {
  it('says so in one line and opens the app through the browser runner', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'fieldmap-start-'));
    try {
      const shot = join(dir, 'shot.png');
      const env = {
        ...process.env,
        // Where electron looks for its binary: empty. Where it downloads from: nobody listens.
        ELECTRON_OVERRIDE_DIST_PATH: join(dir, 'no-electron'),
        ELECTRON_MIRROR: 'http://127.0.0.1:9/',
        electron_config_cache: join(dir, 'electron-cache'),
      };
      // `npm test` has built out/; --no-build keeps this run from rebuilding it under others.
      const args = ['--no-build', '--headless', '--demo', '--screenshot', shot];
      const { code, stdout, stderr } = await run(
        'npm',
        ['start', '--silent', '--', ...args, '--data-dir', join(dir, 'data')],
        env,
      );
      expect(code, stdout + stderr).toBe(0);
      const said = stdout.split('\n').filter((line) => line.includes('Electron'));
      expect(said).toHaveLength(1);
      expect(said[0]).toMatch(
        /^npm start: Electron's binary could not be fetched \(.+\); opening the same app in Chromium through the browser runner instead/,
      );
      expect(stdout).toContain(`screenshot written to ${shot}`);
      const png = await readFile(shot);
      expect(png.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
      expect(png.length).toBeGreaterThan(1_000);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
