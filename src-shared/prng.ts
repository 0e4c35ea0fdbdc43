// Seeded randomness: the one PRNG of the project (route search, demo data, faults, tests), so
// anything drawn from a seed replays exactly.

/** mulberry32: a small, fast generator of floats in [0, 1) determined by `seed`. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
