// A Dexie liveQuery as rune state: `current` is undefined until the first result, then always
// the latest. Results are stored raw (not deep-proxied): they can hold 100k records.
import { liveQuery, type Subscription } from 'dexie';

export class LiveQuery<T> {
  #current = $state.raw<T | undefined>(undefined);
  #error = $state.raw<unknown>(null);
  #subscription: Subscription;

  constructor(querier: () => T | Promise<T>) {
    this.#subscription = liveQuery(querier).subscribe({
      next: (value) => {
        this.#current = value;
        this.#error = null;
      },
      error: (error: unknown) => {
        this.#error = error;
      },
    });
  }

  get current(): T | undefined {
    return this.#current;
  }

  get error(): unknown {
    return this.#error;
  }

  dispose(): void {
    this.#subscription.unsubscribe();
  }
}
