// Waits until the app is drawn, then writes a PNG. The renderer marks itself ready with a
// `data-ready` attribute; a renderer without the marker gets network idle plus a short settle.
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Page } from 'playwright-core';

const READY_TIMEOUT_MS = 20_000;
const SETTLE_MS = 500;

export async function waitUntilDrawn(page: Page): Promise<'data-ready' | 'network-idle'> {
  try {
    await page.waitForSelector('[data-ready]', { state: 'attached', timeout: READY_TIMEOUT_MS });
    // Two animation frames: the marker's frame is painted before the capture.
    await page.evaluate(() => {
      const raf = (globalThis as unknown as { requestAnimationFrame: (cb: () => void) => void })
        .requestAnimationFrame;
      return new Promise<void>((r) => raf(() => raf(r)));
    });
    return 'data-ready';
  } catch {
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(SETTLE_MS);
    return 'network-idle';
  }
}

export async function writeScreenshot(
  page: Page,
  file: string,
): Promise<'data-ready' | 'network-idle'> {
  const how = await waitUntilDrawn(page);
  await mkdir(dirname(file), { recursive: true });
  await page.screenshot({ path: file });
  return how;
}
