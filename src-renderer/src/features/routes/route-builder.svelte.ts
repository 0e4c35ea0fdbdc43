// The route being built: an ordered list of stops (customer ids, temp ids included) and a name.
import { toFieldmapError } from '../../../../src-shared';
import type { ChangeWriter } from '../editor/change-writer';
import { text } from './text';

export class RouteBuilder {
  #stops = $state<string[]>([]);
  name = $state('');
  #anchor: string | null = null;
  #saving = $state(false);
  #failure = $state<string | null>(null);
  #tried = $state(false);

  get stops(): string[] {
    return this.#stops;
  }

  get saving(): boolean {
    return this.#saving;
  }

  get failure(): string | null {
    return this.#failure;
  }

  get nameError(): string | null {
    return this.#tried && this.name.trim() === '' ? text.builder.nameMissing : null;
  }

  get stopsError(): string | null {
    return this.#tried && this.#stops.length === 0 ? text.builder.stopsMissing : null;
  }

  has(id: string): boolean {
    return this.#stops.includes(id);
  }

  /** Adds or removes one stop; with `range` (shift-click) every row from the last click. */
  toggle(id: string, range: readonly string[] | null = null): void {
    const anchor = this.#anchor;
    this.#anchor = id;
    if (range && anchor !== null) {
      const from = range.indexOf(anchor);
      const to = range.indexOf(id);
      if (from >= 0 && to >= 0) {
        this.add(range.slice(Math.min(from, to), Math.max(from, to) + 1));
        return;
      }
    }
    this.#stops = this.has(id) ? this.#stops.filter((s) => s !== id) : [...this.#stops, id];
  }

  /** Appends stops not in the route yet, in the given order. */
  add(ids: readonly string[]): void {
    const seen = new Set(this.#stops);
    this.#stops = [...this.#stops, ...ids.filter((id) => !seen.has(id) && seen.add(id))];
  }

  remove(id: string): void {
    this.#stops = this.#stops.filter((s) => s !== id);
  }

  /** Moves the stop at `from` to index `to`. */
  move(from: number, to: number): void {
    if (from === to || from < 0 || to < 0 || from >= this.#stops.length || to >= this.#stops.length)
      return;
    const stops = [...this.#stops];
    const [stop] = stops.splice(from, 1);
    stops.splice(to, 0, stop!);
    this.#stops = stops;
  }

  /** A temp id that became a server id keeps its place. */
  rename(from: string, to: string): void {
    if (this.has(from)) this.#stops = this.#stops.map((s) => (s === from ? to : s));
  }

  clear(): void {
    this.#stops = [];
    this.name = '';
    this.#anchor = null;
    this.#tried = false;
    this.#failure = null;
  }

  /** Queues the route; true when queued. */
  async save(writer: ChangeWriter): Promise<boolean> {
    this.#tried = true;
    this.#failure = null;
    if (this.name.trim() === '' || this.#stops.length === 0 || this.#saving) return false;
    this.#saving = true;
    try {
      await writer.createRoute(this.name.trim(), [...this.#stops]);
      this.clear();
      return true;
    } catch (error) {
      this.#failure = toFieldmapError(error).message;
      return false;
    } finally {
      this.#saving = false;
    }
  }
}
