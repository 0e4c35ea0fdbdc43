// Seeded randomness (mulberry32) so demo data and faults replay exactly from a seed.

/** A generator of floats in [0, 1) determined by `seed`. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Helpers over a 0..1 source. */
export class Random {
  constructor(readonly next: () => number) {}
  static seeded(seed: number): Random {
    return new Random(mulberry32(seed));
  }
  int(min: number, maxInclusive: number): number {
    return min + Math.floor(this.next() * (maxInclusive - min + 1));
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)] as T;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  /** Roughly normal (sum of uniforms), mean 0, sd ~1. */
  gauss(): number {
    return this.next() + this.next() + this.next() + this.next() - 2;
  }
}
