// The project's seeded PRNG for tests (one implementation: src-shared/prng.ts).
export { mulberry32 } from '../../src-shared/prng';
