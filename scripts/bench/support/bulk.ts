// The scale bench's bulk change: a box drawn around ~355 customers of one town at 100k, Set
// colour, until every change has left the queue (each op leaves it only once the service answered
// its PUT). What the rep feels meanwhile is measured too: the longest task on the page, and how
// true the Selection panel's and the status bar's "about N left" were against when the sync that
// sent the changes said "Synced".
import type { Page } from 'playwright-core';
import type { Customer, Op } from '../../../src-shared';
import { PALETTE } from '../../../src-shared';
import { positionOf } from '../../../src-shared/geo';
import type { AppHandle } from '../../../test/support/app';
import { drawBox, selectedCount, type Box } from '../../../test/workflow/field-day/bulk-map';

export const BULK_TARGET = 355;

/** A box around the customers nearest one town's middle holding about `want` mapped customers. */
export function bulkBox(records: Customer[], want = BULK_TARGET): { box: Box; ids: string[] } {
  const placed = records.flatMap((c) => {
    const at = positionOf(c);
    return at ? [{ c, lng: at[0], lat: at[1] }] : [];
  });
  // The town with the most customers is dense: its middle is where a rep lassos a town.
  const byCity = new Map<string, typeof placed>();
  for (const p of placed) {
    const list = byCity.get(p.c.city) ?? [];
    list.push(p);
    byCity.set(p.c.city, list);
  }
  const town = [...byCity.values()].sort((a, b) => b.length - a.length)[0]!;
  const mid = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const lng0 = mid(town.map((p) => p.lng));
  const lat0 = mid(town.map((p) => p.lat));
  const inside = (r: number) =>
    placed.filter((p) => Math.abs(p.lng - lng0) <= r && Math.abs(p.lat - lat0) <= r / 1.5);
  // The half-width (degrees) whose box holds `want`, by bisection.
  let lo = 0;
  let hi = 2;
  for (let i = 0; i < 40; i++) {
    const r = (lo + hi) / 2;
    if (inside(r).length < want) lo = r;
    else hi = r;
  }
  const box = { west: lng0 - hi, east: lng0 + hi, south: lat0 - hi / 1.5, north: lat0 + hi / 1.5 };
  return { box, ids: inside(hi).map((p) => p.c.id) };
}

export interface BulkResult {
  count: number;
  /** Set colour clicked to the last of its changes answered by the service (not the pull after). */
  ms: number;
  opsPerS: number;
  longestTask: number;
  /**
   * The worst "about N left" of the Selection panel against the time really left to "Synced"
   * (the sync's final pull included), as a fraction of the latter.
   */
  etaWorstError: number;
  /** The same of the status bar's time left. */
  barEtaWorstError: number;
}

/** An "about N left" read at `at` (Date.now), in seconds. */
export type Sample = { at: number; leftS: number };

/** The seconds an "about 1 min 30 s left" says, or null when `shown` says no time. */
export function timeLeftSaid(shown: string): number | null {
  const left = /about (?:([\d,]+) min)? ?(?:([\d,]+) s)? left/.exec(shown);
  if (!left || !(left[1] || left[2])) return null;
  const n = (x: string | undefined) => Number((x ?? '0').replace(/,/g, ''));
  return n(left[1]) * 60 + n(left[2]);
}

/**
 * The worst "about N left" against the time really left to `end`, as a fraction of the latter.
 * Samples in the last `tailMs` are left out: "about 3 s left" 2 s before the end is true enough
 * (whole seconds, a text the page redraws each second).
 */
export function worstError(samples: readonly Sample[], end: number, tailMs = 10_000): number {
  const errors = samples
    .filter((s) => end - s.at > tailMs)
    .map((s) => Math.abs(s.leftS * 1000 - (end - s.at)) / (end - s.at));
  return errors.length ? Math.max(...errors) : 0;
}

/** Draws the bulk's box in the Selection panel until it selects its customers; their ids. */
export async function selectBox(
  page: Page,
  records: Customer[],
  waitMs: number,
): Promise<string[]> {
  const { box, ids } = bulkBox(records);
  const margin = (box.east - box.west) * 0.4;
  const view = {
    west: box.west - margin,
    east: box.east + margin,
    south: box.south - margin,
    north: box.north + margin,
  };
  await drawBox(page, box, view);
  const started = Date.now();
  while ((await selectedCount(page)) !== String(ids.length)) {
    if (Date.now() - started > waitMs) throw new Error(`the box never selected ${ids.length}`);
    await page.waitForTimeout(100);
  }
  return ids;
}

/** Draws the box, sets a colour and waits until the service has every change. */
export async function bulkColour(
  app: AppHandle,
  records: Customer[],
  longestTask: (from: number, to: number) => Promise<number>,
  waitMs: number,
): Promise<BulkResult> {
  const { page } = app;
  const ids = await selectBox(page, records, waitMs);
  const current = new Map(records.map((c) => [c.id, c.color]));
  // The colour fewest of them have: nearly every one of them changes.
  const color = [...PALETTE].sort(
    (a, b) =>
      ids.filter((id) => current.get(id) === a).length -
      ids.filter((id) => current.get(id) === b).length,
  )[0]!;
  await page.selectOption('aside.selection select[aria-label="New colour"]', color);
  const from = await page.evaluate(() => performance.now());
  const t0 = Date.now();
  await page.click('aside.selection button:has-text("Set colour")');
  // Each "about N left" the Selection panel and the status bar said, against the time really
  // left: until the sync that sent the changes said "Synced" (its final pull included).
  const panel: Sample[] = [];
  const bar: Sample[] = [];
  let seen = false;
  let sent: number | null = null;
  let to = 0;
  for (;;) {
    const queued = (await app.call<Op[]>('listOps')).filter((op) => ids.includes(op.target));
    if (queued.length > 0) seen = true;
    if (seen && queued.length === 0 && sent === null) {
      sent = Date.now();
      // The longest task is the drain's, as before the wait for "Synced" was added.
      to = await page.evaluate(() => performance.now());
    }
    if (sent !== null && (await page.getAttribute('.sync-status', 'data-sync')) === 'synced') break;
    const said = async (selector: string, into: Sample[]) => {
      const leftS = timeLeftSaid((await page.textContent(selector).catch(() => null)) ?? '');
      if (leftS !== null) into.push({ at: Date.now(), leftS });
    };
    await said('aside.selection .sending', panel);
    await said('.sync-status .text', bar);
    if (Date.now() - t0 > waitMs) throw new Error(`${queued.length} changes still queued`);
    await page.waitForTimeout(250);
  }
  const end = Date.now();
  const shown = (samples: Sample[]) =>
    samples
      .map(
        (x) => `${Math.round((x.at - t0) / 1000)}: ${x.leftS}, ${Math.round((end - x.at) / 1000)}`,
      )
      .join('; ');
  if (process.env['FIELDMAP_SCALE_DEBUG'])
    console.error(
      `bulk time left (click at ${t0}, Synced at ${end}; s after click: said, really left; sent at ${Math.round(((sent ?? end) - t0) / 1000)} s, ` +
        `synced at ${Math.round((end - t0) / 1000)} s)\n  panel: ${shown(panel)}\n  bar: ${shown(bar)}`,
    );
  // FIELDMAP_SCALE_DEBUG=1: the last 10 s too (the key leaves them out), to 3 s before the end.
  const last = (samples: Sample[]) =>
    Math.round(
      100 *
        worstError(
          samples.filter((x) => end - x.at <= 10_000),
          end,
          3_000,
        ),
    );
  if (process.env['FIELDMAP_SCALE_DEBUG'])
    console.error(
      `bulk time left worst in its last 10 s: panel ${last(panel)} %, bar ${last(bar)} %`,
    );
  const count = ids.filter((id) => current.get(id) !== color).length;
  const sentAt = sent ?? end;
  return {
    count,
    ms: sentAt - t0,
    opsPerS: count / ((sentAt - t0) / 1000),
    longestTask: await longestTask(from, to),
    etaWorstError: worstError(panel, end),
    barEtaWorstError: worstError(bar, end),
  };
}
