// After an account is closed main asks V8 to collect (main-heap.ts): what the account held must
// be gone from the heap then, not whenever main next allocates enough for V8 to look.
import { describe, expect, it } from 'vitest';
import { collectAfterAccount } from '../../src-main/app/main-heap';

describe("main's heap after an account is closed", () => {
  it('collects what nothing holds any more, every generation of it', async () => {
    // Old (survived collections) and young garbage both: a last pull is old by the sign-out.
    let old: Array<{ id: string; name: string }> | null = Array.from(
      { length: 200_000 },
      (_, i) => ({ id: `c${i}`, name: `customer ${i}` }),
    );
    const oldRef = new WeakRef(old);
    await new Promise((resolve) => setImmediate(resolve));
    let young: number[] | null = Array.from({ length: 1_000 }, (_, i) => i);
    const youngRef = new WeakRef(young);
    // eslint-disable-next-line no-useless-assignment
    old = null;
    // eslint-disable-next-line no-useless-assignment
    young = null;
    // A turn: a WeakRef read in a job keeps its target until the job ends.
    await new Promise((resolve) => setImmediate(resolve));
    await collectAfterAccount();
    await new Promise((resolve) => setImmediate(resolve));
    expect(oldRef.deref()).toBeUndefined();
    expect(youngRef.deref()).toBeUndefined();
  });
});
