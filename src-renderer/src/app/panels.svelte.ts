// Which side panel is open, and the work in progress it holds (the editor's form, the route).
import type { Customer } from '../../../src-shared';
import { CustomerEditor } from '../features/editor/customer-editor.svelte';
import { RouteBuilder } from '../features/routes/route-builder.svelte';

export type PanelKind = 'editor' | 'route' | 'changes' | 'conflicts' | 'account';

/** What a click on the map does right now. */
export type MapMode = 'browse' | 'pick-position' | 'lasso' | 'box';

export class Panels {
  #open = $state<PanelKind | null>(null);
  #editor = $state.raw<CustomerEditor | null>(null);
  #mapMode = $state<MapMode>('browse');
  readonly route = new RouteBuilder();

  get open(): PanelKind | null {
    return this.#open;
  }

  get editor(): CustomerEditor | null {
    return this.#editor;
  }

  get mapMode(): MapMode {
    return this.#mapMode;
  }

  set mapMode(mode: MapMode) {
    this.#mapMode = mode;
  }

  show(kind: PanelKind): void {
    this.#open = kind;
    this.#mapMode = 'browse';
  }

  /** Opens the editor on a record, or on an empty form for a new customer. */
  edit(record: Customer | null, colors: readonly string[]): void {
    this.#editor = new CustomerEditor(record, colors);
    this.show('editor');
  }

  close(): void {
    if (this.#open === 'editor') this.#editor = null;
    this.#open = null;
    this.#mapMode = 'browse';
  }

  /** Everything in progress belongs to one account: drop it when the account changes. */
  reset(): void {
    this.close();
    this.#editor = null;
    this.route.clear();
  }
}
