// What is on screen besides the map: the one place that decides which side panel and which
// dialog are open (and what closes first on Escape), the sidebar's tab, where the map was asked
// to go, and the work in progress a panel holds (the editor's form, the route).
import type { Customer, LngLat } from '../../../src-shared';
import type { TimeUnit } from '../../../src-shared/time-units';
import { CustomerEditor } from '../features/editor/customer-editor.svelte';
import { RouteBuilder } from '../features/routes/route-builder.svelte';
import { BulkSelection } from '../features/selection/bulk-selection.svelte';
import type { MapMode } from '../map/tools/map-mode';
import type { FocusRequest } from '../types';

export type PanelKind =
  | 'editor'
  | 'route'
  | 'week-plan'
  | 'changes'
  | 'conflicts'
  | 'account'
  | 'selection'
  | 'nearby'
  | 'reminders';

/** A modal dialog over the window; 'visit' logs a visit to `visitFor`. */
export type DialogKind = 'offline-maps' | 'reauth' | 'visit';

export type SidebarTab = 'customers' | 'unmapped' | 'territories' | 'routes';

export class Panels {
  #open = $state<PanelKind | null>(null);
  #dialog = $state<DialogKind | null>(null);
  #visitFor = $state<string | null>(null);
  #editor = $state.raw<CustomerEditor | null>(null);
  #mapMode = $state<MapMode>('browse');
  #focus = $state.raw<FocusRequest | null>(null);
  #drawnArea = $state.raw<LngLat[] | null>(null);
  #nonce = 0;
  tab = $state<SidebarTab>('customers');
  readonly route = new RouteBuilder();
  /** What a lasso or box selected for the Selection panel's bulk actions. */
  readonly bulk = new BulkSelection();

  get open(): PanelKind | null {
    return this.#open;
  }

  get dialog(): DialogKind | null {
    return this.#dialog;
  }

  /** The customer the visit dialog logs a visit to. */
  get visitFor(): string | null {
    return this.#dialog === 'visit' ? this.#visitFor : null;
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

  /** The last area drawn on the map for Offline maps to download (kept until another is drawn). */
  get drawnArea(): LngLat[] | null {
    return this.#drawnArea;
  }

  /** Offline maps steps aside while the rep draws an area to download on the map. */
  drawDownloadArea(): void {
    this.#dialog = null;
    this.#mapMode = 'draw-area';
  }

  /** The drawn area goes back to Offline maps, which shows what downloading it takes. */
  finishDrawnArea(ring: LngLat[]): void {
    this.#drawnArea = ring;
    this.#mapMode = 'browse';
    this.#dialog = 'offline-maps';
  }

  /** Drawing cancelled (Esc, or Cancel): back to Offline maps, where it started. */
  cancelDrawing(): void {
    this.#mapMode = 'browse';
    this.#dialog = 'offline-maps';
  }

  /** The last request to move the map to a customer, territory or route. */
  get focus(): FocusRequest | null {
    return this.#focus;
  }

  focusOn(kind: FocusRequest['kind'], id: string): void {
    this.#focus = { kind, id, nonce: ++this.#nonce };
  }

  show(kind: PanelKind): void {
    this.#open = kind;
    this.#mapMode = 'browse';
  }

  /** Opens the Selection panel with a lasso or box ready to draw on the map. */
  selectOnMap(mode: 'lasso' | 'box'): void {
    this.show('selection');
    this.#mapMode = mode;
  }

  /** Opens the panel, or closes it when it is the open one. */
  toggle(kind: PanelKind): void {
    if (this.#open === kind) this.close();
    else this.show(kind);
  }

  /** Opens the editor on a record, or on an empty form for a new customer. */
  edit(record: Customer | null, colors: readonly string[], unit: TimeUnit): void {
    this.#editor = new CustomerEditor(record, colors, unit);
    this.show('editor');
  }

  close(): void {
    if (this.#open === 'editor') this.#editor = null;
    this.#open = null;
    this.#mapMode = 'browse';
  }

  /** Opens a dialog over whatever panel is open (one dialog at a time). */
  showDialog(kind: Exclude<DialogKind, 'visit'>): void {
    this.#dialog = kind;
  }

  logVisit(customerId: string): void {
    this.#visitFor = customerId;
    this.#dialog = 'visit';
  }

  closeDialog(): void {
    this.#dialog = null;
    this.#visitFor = null;
  }

  /**
   * Escape: closes the innermost thing open. A dialog handles its own Escape; then a map tool,
   * then the side panel; false when nothing was open (the caller may then clear the selection).
   */
  closeTopmost(): boolean {
    if (this.#dialog !== null) this.closeDialog();
    else if (this.#mapMode === 'draw-area') this.cancelDrawing();
    else if (this.#mapMode !== 'browse') this.#mapMode = 'browse';
    else if (this.#open !== null) this.close();
    else return false;
    return true;
  }

  /** Everything in progress belongs to one account: drop it when the account changes. */
  reset(): void {
    this.close();
    // The offline maps belong to this computer, not to the account.
    if (this.#dialog !== 'offline-maps') this.closeDialog();
    this.#editor = null;
    this.#focus = null;
    this.route.clear();
    this.bulk.reset();
  }
}
