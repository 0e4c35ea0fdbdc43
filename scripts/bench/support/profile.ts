// FIELDMAP_SCALE_PROFILE=<phase,...>: a CPU profile of the page's main thread over a bench phase,
// summarised on stderr as the functions that ran in its longest busy stretch. The keys say how
// long a task was; this says whose code it was, so a slow phase can be worked on without guessing.
import type { Page } from 'playwright-core';
import { longestAppTask } from './felt';

type Frame = { functionName: string; url: string; lineNumber: number };
type ProfileNode = { id: number; callFrame: Frame; children?: number[] };
type CpuProfile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };

const PHASES = new Set(
  (process.env['FIELDMAP_SCALE_PROFILE'] ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean),
);

/** True when FIELDMAP_SCALE_PROFILE names `phase`. */
export const profiling = (phase: string): boolean => PHASES.has(phase);

/** Runs `fn`, under the page's CPU profiler when `phase` is named in FIELDMAP_SCALE_PROFILE. */
export async function profiled<T>(page: Page, phase: string, fn: () => Promise<T>): Promise<T> {
  if (!PHASES.has(phase)) return fn();
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 250 });
  await cdp.send('Profiler.start');
  // The page's clock when the profile began (within a round trip): long tasks are on it.
  // A reload restarts the page's clock: timeOrigin says by how much (epoch ms).
  const [pageStart, origin] = await page.evaluate(() => [
    performance.now(),
    performance.timeOrigin,
  ]);
  try {
    return await fn();
  } finally {
    const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: CpuProfile };
    await cdp.detach();
    // The task with the most of the app's own time: MapLibre's frame renders taken out (felt.ts).
    const longest = await page
      // The profile's start on this document's clock.
      .evaluate(([start, origin]) => start - (performance.timeOrigin - origin), [
        pageStart,
        origin,
      ] as const)
      .then(async (from) => ({ from, ...(await longestAppTask(page, from, Number.MAX_VALUE)) }))
      .catch(() => null);
    console.error(`profile of ${phase}:\n${summarise(profile)}`);
    // FIELDMAP_SCALE_PROFILE_TASKS=<ms>: each long task of the phase over that many ms, by the
    // functions that ran in it (self time): which of them are the app's, and whose.
    const over = Number(process.env['FIELDMAP_SCALE_PROFILE_TASKS'] ?? 0);
    if (over > 0) {
      const tasks = await page
        .evaluate(
          ([start, origin, over]) => {
            const from = start - (performance.timeOrigin - origin);
            const probe = (
              globalThis as unknown as {
                __scale?: { longtasks: Array<{ start: number; duration: number }> };
              }
            ).__scale;
            return (probe?.longtasks ?? [])
              .filter((t) => t.start >= from && t.duration > over)
              .map((t) => ({ at: t.start - from, ms: t.duration }));
          },
          [pageStart, origin, over] as const,
        )
        .catch(() => []);
      for (const t of tasks)
        console.error(
          `  task of ${Math.round(t.ms)} ms at ${Math.round(t.at)} ms:\n` +
            summarise(profile, 8, { from: t.at * 1000, to: (t.at + t.ms) * 1000 })
              .split('\n')
              .filter((line, i, all) => i >= all.indexOf('  self:'))
              .join('\n'),
        );
    }
    if (longest && longest.task > 0) {
      const start = longest.at - longest.from;
      console.error(
        `  its task with the most app time (${Math.round(longest.app)} ms), ` +
          `${Math.round(longest.task)} ms at ${Math.round(start)} ms:\n` +
          summarise(profile, 18, { from: start * 1000, to: (start + longest.task) * 1000 }),
      );
    }
  }
}

const where = (f: Frame) =>
  `${f.functionName || '(anonymous)'} ${f.url.split('/').pop() ?? ''}:${f.lineNumber + 1}`;

/**
 * Who ran (self and total) in the longest stretch of samples with no idle one in it, or in
 * `window` (µs since the profile's start).
 */
export function summarise(
  profile: CpuProfile & { startTime?: number },
  top = 18,
  window?: { from: number; to: number },
): string {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const idle = (id: number) => byId.get(id)?.callFrame.functionName === '(idle)';
  let best = { from: 0, to: 0, ms: 0 };
  let from = 0;
  let ms = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    if (idle(profile.samples[i]!)) {
      from = i + 1;
      ms = 0;
      continue;
    }
    ms += (profile.timeDeltas[i + 1] ?? 0) / 1000;
    if (ms > best.ms) best = { from, to: i, ms };
  }
  if (window) {
    let t = 0;
    best = { from: -1, to: -1, ms: 0 };
    for (let i = 0; i < profile.samples.length; i++) {
      t += profile.timeDeltas[i] ?? 0;
      if (t < window.from || t > window.to) continue;
      if (best.from < 0) best.from = i;
      best.to = i;
      best.ms += (profile.timeDeltas[i + 1] ?? 0) / 1000;
    }
    if (best.from < 0) return '  (no samples in that window)';
  }
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  for (let i = best.from; i <= best.to; i++) {
    const dt = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    const leaf = profile.samples[i]!;
    const key = where(byId.get(leaf)!.callFrame);
    self.set(key, (self.get(key) ?? 0) + dt);
    const seen = new Set<string>();
    for (let id: number | undefined = leaf; id !== undefined; id = parent.get(id)) {
      const k = where(byId.get(id)!.callFrame);
      if (seen.has(k)) continue;
      seen.add(k);
      total.set(k, (total.get(k) ?? 0) + dt);
    }
  }
  const list = (m: Map<string, number>) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([k, v]) => `    ${v.toFixed(0).padStart(5)} ms  ${k}`)
      .join('\n');
  return (
    `  ${window ? 'sampled' : 'longest busy stretch'}: ${best.ms.toFixed(0)} ms\n  total:\n${list(total)}\n` +
    `  self:\n${list(self)}`
  );
}
