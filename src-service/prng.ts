// Seeded randomness (mulberry32) so demo data and faults replay exactly from a seed.
import { mulberry32 } from '../src-shared/prng';

export { mulberry32 };

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
