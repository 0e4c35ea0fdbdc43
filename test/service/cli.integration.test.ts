// The command line: `npm run service -- ...` reaches "listening", serves, and saves on SIGTERM.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseCliArgs } from '../../src-service/cli-args';
import { basic } from '../support/service';

const ROOT = join(import.meta.dirname, '..', '..');
const children: ChildProcess[] = [];
const dirs: string[] = [];

/** Starts `npm run service -- args` in its own process group; resolves with its URL. */
function startCli(
  args: string[],
): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  const child = spawn('npm', ['run', '--silent', 'service', '--', ...args], {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const m = /listening on (https?:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (m) resolve({ child, url: m[1] as string, output: () => output });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
    child.on('close', (code) => reject(new Error(`service exited with ${code}: ${output}`)));
  });
}

/**
 * Signals the whole process group (npm, tsx and node) and waits until every process holding the
 * output pipes is gone ('close', not 'exit': npm may exit before the service has saved).
 */
function stopCli(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  return new Promise((resolve) => {
    if (child.stdout!.closed && child.stderr!.closed) return resolve();
    child.once('close', () => resolve());
    process.kill(-(child.pid as number), signal);
  });
}

afterEach(async () => {
  await Promise.all(children.splice(0).map((c) => stopCli(c, 'SIGKILL').catch(() => undefined)));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('reference service CLI', () => {
  it('npm run service -- --port 0 --customers 100000 gets to listening and serves them', async () => {
    const started = performance.now();
    const { child, url, output } = await startCli(['--port', '0', '--customers', '100000']);
    const cpu = /process CPU \d+ ms/.exec(output())?.[0] ?? '';
    console.log(
      `CLI: listening with 2 x 100,000 customers after ${Math.round(performance.now() - started)} ms (${cpu})`,
    );
    const res = await fetch(`${url}/api/v1/user`, {
      headers: { Authorization: basic('demo', 'demo') },
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { numPins: number }).numPins).toBe(100_000);
    await stopCli(child, 'SIGTERM');
  });

  it('saves the data file on SIGTERM and applies variant flags', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fieldmap-cli-'));
    dirs.push(dir);
    const data = join(dir, 'data.json');
    const args = [
      '--port',
      '0',
      '--customers',
      '5',
      '--accounts',
      'rep:secret',
      '--rate',
      '0',
      '--data',
      data,
    ];
    const { child, url, output } = await startCli([
      ...args,
      '--create-message',
      'without-id',
      '--timezone-type',
      '1',
    ]);
    const auth = { Authorization: basic('rep', 'secret'), 'Content-Type': 'application/json' };
    const created = await fetch(`${url}/api/v1/customers`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ name: 'Saved by SIGTERM' }),
    });
    expect(await created.json()).toEqual({ message: 'Object created' });
    const list = (await (await fetch(`${url}/api/v1/customers`, { headers: auth })).json()) as {
      createdAt: { timezone: string };
    }[];
    expect(list[0]!.createdAt.timezone).toBe('+00:00');
    await stopCli(child, 'SIGTERM');
    expect(output()).toMatch(/SIGTERM: stopped, data saved/);
    const snapshot = readFileSync(data, 'utf8');
    expect(snapshot).toContain('Saved by SIGTERM');
    // The password is stored only as a salted hash.
    expect(snapshot).not.toContain('secret');
    const again = await startCli(args);
    const res = await fetch(`${again.url}/api/v1/customers/search/sigterm`, { headers: auth });
    expect(((await res.json()) as unknown[]).length).toBe(1);
    await stopCli(again.child, 'SIGTERM');
  });

  it('parses every flag and refuses bad values', () => {
    const o = parseCliArgs([
      '--port',
      '9000',
      '--host',
      '::1',
      '--customers',
      '7',
      '--seed',
      '3',
      '--accounts',
      'a:b:c,d:e',
      '--rate',
      '5',
      '--allow',
      '10.0.0.0/8, ::1',
      '--tls',
      '--data',
      'x.json',
      '--put',
      'replace',
      '--rate-limited',
      '503',
      '--forbidden-body',
      'html',
      '--unmapped',
      'zero',
      '--deal-amount',
      'string',
      '--faults',
      'latency=20,jitter=5,error=0.1,reset-before=0.2,reset-after=0.3,seed=9',
    ]);
    expect(o).toMatchObject({
      port: 9000,
      host: '::1',
      seed: 3,
      accounts: [
        { username: 'a', password: 'b:c', customers: 7 },
        { username: 'd', password: 'e', customers: 7 },
      ],
      rate: 5,
      allow: ['10.0.0.0/8', '::1'],
      tls: true,
      dataFile: 'x.json',
      variants: {
        put: 'replace',
        rateLimited: '503',
        forbiddenBody: 'html',
        unmapped: 'zero',
        dealAmount: 'string',
      },
      faults: {
        latencyMs: 20,
        jitterMs: 5,
        errorRate: 0.1,
        resetBeforeRate: 0.2,
        resetAfterRate: 0.3,
        seed: 9,
      },
    });
    expect(() => parseCliArgs(['--put', 'merge'])).toThrow(/put/);
    expect(() => parseCliArgs(['--port', 'abc'])).toThrow(/port/);
    expect(() => parseCliArgs(['--faults', 'explode=1'])).toThrow(/explode/);
    expect(() => parseCliArgs(['--cert', 'a.pem'])).toThrow(/--key/);
    expect(() => parseCliArgs(['--bogus'])).toThrow();
    expect(() => parseCliArgs(['--accounts', 'nopassword'])).toThrow(/user:password/);
  });
});
