// The shared test helpers themselves: a wait that cannot pass silently, one PRNG.
import { describe, expect, it } from 'vitest';
import { mulberry32 } from './prng';
import { until } from './until';

describe('until', () => {
  it('rejects with what was awaited when the check never holds', async () => {
    await expect(until(() => false, 'the moon', 100)).rejects.toThrow('never reached: the moon');
  });

  it('resolves once the check holds', async () => {
    let calls = 0;
    await until(() => ++calls >= 3, 'three calls');
    expect(calls).toBe(3);
  });
});

describe('mulberry32', () => {
  it('replays the same floats in [0, 1) from the same seed, others from another', () => {
    const a = Array.from({ length: 1000 }, mulberry32(42));
    const b = Array.from({ length: 1000 }, mulberry32(42));
    const c = Array.from({ length: 1000 }, mulberry32(43));
    expect(a).toEqual(b);
    expect(a).not.toEqual(c);
    expect(a.every((x) => x >= 0 && x < 1)).toBe(true);
    // The sequence every seeded fixture and bench relied on before it was shared.
    expect(mulberry32(1)()).toBeCloseTo(0.6270739405881613, 15);
  });
});
