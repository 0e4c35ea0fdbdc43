// An open/closed state the rep sets once and finds again after a restart (the map's legend),
// kept in this computer's localStorage as units.svelte.ts keeps the distance unit.
type Store = Pick<Storage, 'getItem' | 'setItem'>;

export class RememberedToggle {
  #open = $state(true);

  constructor(
    private readonly key: string,
    private readonly storage: Store | null = typeof localStorage === 'undefined'
      ? null
      : localStorage,
    fallback = true,
  ) {
    const stored = storage?.getItem(key);
    this.#open = stored === 'open' ? true : stored === 'closed' ? false : fallback;
  }

  get open(): boolean {
    return this.#open;
  }

  set open(open: boolean) {
    this.#open = open;
    this.storage?.setItem(this.key, open ? 'open' : 'closed');
  }
}
