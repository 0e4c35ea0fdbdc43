// Keeps the app's state live (as mounted components would) so the heap holds what the app holds.
import type { CustomerCache } from '../../../src-renderer/src/cache/customer-cache';
import { AccountData } from '../../../src-renderer/src/app/account-data.svelte';

let keep: AccountData | null = null;

export function loadAppState(
  cache: CustomerCache,
): Promise<{ customers: number; filtered: number }> {
  const data = new AccountData(cache);
  keep = data;
  return new Promise((resolve) => {
    $effect.root(() => {
      $effect(() => {
        const { customers } = data;
        if (!data.loaded || customers.all.length === 0) return;
        // What the mounted app reads: the list, the unmapped list and the map's customers.
        const shown =
          customers.filtered.length + customers.unmapped.length + customers.mapped.length;
        resolve({ customers: keep?.customers.all.length ?? 0, filtered: shown });
      });
    });
  });
}
