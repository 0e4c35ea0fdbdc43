// What the browser runner's main process holds that Electron's main has not: the playwright-core
// client that launches Chromium and talks CDP to it (browser-runner/launch.ts). Run as a child
// of its own (`node --import tsx` as main's child is): its RSS before playwright-core is imported
// and after a persistent Chromium context is launched and a page opened, as the runner does.
import { readFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

async function rss(): Promise<number> {
  const status = await readFile('/proc/self/status', 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) * 1024;
}

/** The client's share of a runner's RSS (MB): after the launch minus before the import. */
export function playwrightClientRssMb(): Promise<number> {
  const root = fileURLToPath(new URL('../../..', import.meta.url));
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(import.meta.url), '--measure'],
    { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.once('exit', (code) => {
      const mb = Number(/client-rss-mb (\d+)/.exec(out)?.[1]);
      if (code === 0 && Number.isFinite(mb)) resolve(mb);
      else reject(new Error(`the playwright-core measure exited (${code}): ${out}`));
    });
  });
}

if (process.argv.includes('--measure')) {
  const before = await rss();
  const { chromium } = await import('playwright-core');
  const { CHROMIUM_ARGS, CHROMIUM_PATH } = await import('../../chromium');
  const dir = await mkdtemp(join(tmpdir(), 'fieldmap-client-rss-'));
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [...CHROMIUM_ARGS],
  });
  const page = context.pages()[0] ?? (await context.newPage());
  await page.goto('data:text/html,<title>client</title>');
  await page.evaluate(() => document.title);
  const after = await rss();
  await context.close();
  await rm(dir, { recursive: true, force: true });
  console.log(`client-rss-mb ${Math.round((after - before) / 2 ** 20)}`);
}
