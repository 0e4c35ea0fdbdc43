// Which customer is selected and which is hovered: shared by the list, the panel and the map.
export class SelectionState {
  #selectedId = $state<string | null>(null);
  #hoveredId = $state<string | null>(null);

  get selectedId(): string | null {
    return this.#selectedId;
  }

  get hoveredId(): string | null {
    return this.#hoveredId;
  }

  select(id: string | null): void {
    this.#selectedId = id;
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
