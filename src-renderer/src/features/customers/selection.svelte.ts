// Which customer is selected and which is hovered: shared by the list, the panel and the map.
export class SelectionState {
  #selectedId = $state<string | null>(null);
  #hoveredId = $state<string | null>(null);
  #openedByKey = $state(false);

  get selectedId(): string | null {
    return this.#selectedId;
  }

  get hoveredId(): string | null {
    return this.#hoveredId;
  }

  /** The selection came from Enter on a list row: its details take the focus. */
  get openedByKey(): boolean {
    return this.#openedByKey;
  }

  select(id: string | null): void {
    this.#selectedId = id;
    this.#openedByKey = false;
  }

  /** Enter on a row: selects it, and its details take the keyboard's focus. */
  open(id: string): void {
    this.#selectedId = id;
    this.#openedByKey = true;
  }

  hover(id: string | null): void {
    this.#hoveredId = id;
  }

  /** A temp id became a server id ('ids:resolved'): keep the same record selected. */
  rename(from: string, to: string): void {
    if (this.#selectedId === from) this.#selectedId = to;
    if (this.#hoveredId === from) this.#hoveredId = to;
  }
}
