// A sign-in that cannot reach a service says so in sign-in terms, next to the address (it used
// to say "Your changes are saved and will be sent…", which has no meaning before signing in),
// and keeps the typed password for the next try.
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../src-service/index';
import { launchApp, type AppHandle } from '../support/app';

let app: AppHandle;
let tls: RunningService;

/** A loopback port nothing listens on (taken, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

beforeAll(async () => {
  tls = await startService({ tls: true, rate: 0 });
  app = await launchApp({ serviceUrl: 'http://127.0.0.1:1' });
});

afterAll(async () => {
  await app?.close();
  await tls?.stop();
});

/** Signs in at `url` and waits for the address's message to say `expected`. */
async function signInAt(url: string, expected: string): Promise<string> {
  const { page } = app;
  await page.fill('#si-url', url);
  await page.fill('#si-user', 'rep');
  await page.fill('#si-pass', 'typed-password');
  await page.click('form button[type=submit]');
  await expect.poll(() => page.textContent('#si-url-msg')).toContain(expected);
  return (await page.textContent('#si-url-msg')) ?? '';
}

describe('sign-in messages', () => {
  it('names an unknown host', async () => {
    const text = await signInAt(
      'https://no-such-host.invalid',
      'no server is known by the name no-such-host.invalid',
    );
    expect(text).not.toContain('changes');
    expect(await app.page.inputValue('#si-pass')).toBe('typed-password');
  });

  it('names a closed port', async () => {
    const port = await closedPort();
    const text = await signInAt(`http://127.0.0.1:${port}`, `nothing answers at 127.0.0.1:${port}`);
    expect(text).not.toContain('changes');
    expect(await app.page.inputValue('#si-pass')).toBe('typed-password');
  });

  it('names a certificate that is not trusted', async () => {
    const host = new URL(tls.url).host;
    // The service's certificate signs itself: its issuer is its own name.
    const text = await signInAt(tls.url, `the certificate of ${host}, issued by "localhost"`);
    expect(text).toContain('is not trusted');
    expect(text).not.toContain('changes');
    expect(await app.page.inputValue('#si-pass')).toBe('typed-password');
    expect(await app.call('listAccounts')).toEqual([]);
  });
});
