// What the rep's clicks and keys do across views: open the editor, save it, build a route from
// the map, the keyboard shortcuts. Views call these; none of them writes or opens panels itself.
import type { LngLat } from '../../../src-shared';
import type { NearbyCenter } from '../features/nearby/nearby.svelte';
import type { ChangeWriter } from '../features/editor/change-writer';
import { idsInside } from '../map/tools/point-in-polygon';
import type { AccountData } from './account-data.svelte';
import type { PanelKind, Panels } from './panels.svelte';
import type { SelectionState } from '../features/customers/selection.svelte';
import { shortcutOf } from './shortcuts';

export class AppActions {
  constructor(
    private readonly panels: Panels,
    private readonly selection: SelectionState,
    private readonly writer: ChangeWriter,
    /** "Sync now" (AppController.syncNow: a recovery of the cache waiting for its turn too). */
    private readonly syncNow: () => Promise<unknown>,
    private readonly data: () => AccountData | null,
  ) {}

  newCustomer(): void {
    const data = this.data();
    if (data) this.panels.edit(null, data.colors, data.timeUnit);
  }

  editCustomer(id: string): void {
    const data = this.data();
    const record = data?.customers.byId(id);
    if (data && record) this.panels.edit(record, data.colors, data.timeUnit);
  }

  async saveEditor(): Promise<void> {
    const editor = this.panels.editor;
    if (!editor) return;
    const id = await editor.save(this.writer);
    if (id === null) return;
    this.panels.close();
    this.selection.select(id);
  }

  async deleteEdited(): Promise<void> {
    const editor = this.panels.editor;
    if (!editor || !(await editor.delete(this.writer))) return;
    this.panels.close();
    this.selection.select(null);
  }

  async createRoute(): Promise<void> {
    if (await this.panels.route.save(this.writer)) {
      this.panels.close();
      this.panels.tab = 'routes';
    }
  }

  /** A click on a pin (or on the map: null). While a route is built, it adds the next stop. */
  selectOnMap(id: string | null): void {
    if (this.panels.open === 'route' && id !== null) this.panels.route.add([id]);
    this.selection.select(id);
  }

  /**
   * A lasso or box drawn on the map: the shown customers in it become the Selection (its panel
   * open), or join the route being built; an area to download goes to Offline maps.
   */
  addArea(ring: LngLat[]): void {
    if (this.panels.mapMode === 'draw-area') return this.panels.finishDrawnArea(ring);
    const customers = this.data()?.customers;
    if (this.panels.open === 'selection') {
      this.panels.bulk.select(customers ? idsInside(customers.mappedShown, ring) : []);
      this.panels.mapMode = 'browse';
      return;
    }
    if (customers) this.panels.route.add(idsInside(customers.mapped, ring));
  }

  /** The Selection's customers join the route builder, which opens. */
  addSelectionToRoute(ids: readonly string[]): void {
    this.panels.route.add([...ids]);
    this.panels.show('route');
  }

  /**
   * Opens Nearby around a customer (its details or its pin) or a point (the map centre). The
   * details close, so the map keeps room for the circle; a row opens a customer's again.
   */
  nearby(center: NearbyCenter): void {
    const data = this.data();
    if (!data) return;
    data.nearby.open(center);
    this.selection.select(null);
    this.panels.show('nearby');
  }

  /** A Nearby row: its customer's details beside the list, and its pin on the map. */
  openNearby(id: string): void {
    this.selection.select(id);
    this.panels.focusOn('customer', id);
  }

  addToRoute(id: string): void {
    this.panels.route.toggle(id);
    this.panels.show('route');
  }

  /** Escape: the innermost open thing closes; with nothing open, the selection clears. */
  closeTopmost(): void {
    if (!this.panels.closeTopmost()) this.selection.select(null);
  }

  /**
   * The window's key handler: the shortcuts of ./shortcuts.ts. A panel a key opens takes the
   * focus (`focusPanel`), so the keyboard goes on in it and Escape brings the focus back.
   */
  onKeydown(
    event: KeyboardEvent,
    focusSearch: () => void,
    focusPanel: (kind: PanelKind) => void = () => {},
  ): void {
    // A modal dialog handles its own keys (Escape cancels it, and only it).
    if (event.defaultPrevented || document.querySelector('dialog[open]')) return;
    const action = shortcutOf(event);
    if (action === null || (!this.data() && action !== 'close')) return;
    if (action === 'close') {
      // Esc that stops drawing an area reopens Offline maps: used up here, so the same press
      // does not also cancel that dialog (other presses keep their default, e.g. clearing search).
      if (this.panels.mapMode === 'draw-area') event.preventDefault();
      return this.closeTopmost();
    }
    if (action === 'save' && this.panels.open !== 'editor') return;
    event.preventDefault();
    switch (action) {
      case 'save':
        return void this.saveEditor();
      case 'sync-now':
        return void this.syncNow();
      case 'new-customer':
        return this.newCustomer();
      case 'focus-search':
        return focusSearch();
      case 'route-builder':
        this.panels.show('route');
        return focusPanel('route');
      case 'week-plan':
        this.panels.show('week-plan');
        return focusPanel('week-plan');
      case 'changes':
        this.panels.show('changes');
        return focusPanel('changes');
    }
  }
}
