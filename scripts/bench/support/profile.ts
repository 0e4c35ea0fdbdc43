// FIELDMAP_SCALE_PROFILE=<phase,...>: a CPU profile of the page's main thread over a bench phase,
// summarised on stderr as the functions that ran in its longest busy stretch. The keys say how
// long a task was; this says whose code it was, so a slow phase can be worked on without guessing.
import type { Page } from 'playwright-core';

type Frame = { functionName: string; url: string; lineNumber: number };
type ProfileNode = { id: number; callFrame: Frame; children?: number[] };
type CpuProfile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };

const PHASES = new Set(
  (process.env['FIELDMAP_SCALE_PROFILE'] ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean),
);

/** Runs `fn`, under the page's CPU profiler when `phase` is named in FIELDMAP_SCALE_PROFILE. */
export async function profiled<T>(page: Page, phase: string, fn: () => Promise<T>): Promise<T> {
  if (!PHASES.has(phase)) return fn();
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 250 });
  await cdp.send('Profiler.start');
  try {
    return await fn();
  } finally {
    const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: CpuProfile };
    await cdp.detach();
    console.error(`profile of ${phase}:\n${summarise(profile)}`);
  }
}

const where = (f: Frame) =>
  `${f.functionName || '(anonymous)'} ${f.url.split('/').pop() ?? ''}:${f.lineNumber + 1}`;

/** The longest stretch of samples with no idle one in it, and who ran in it (self and total). */
export function summarise(profile: CpuProfile, top = 18): string {
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
    `  longest busy stretch: ${best.ms.toFixed(0)} ms\n  total:\n${list(total)}\n` +
    `  self:\n${list(self)}`
  );
}
