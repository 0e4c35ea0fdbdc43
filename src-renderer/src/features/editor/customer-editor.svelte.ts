// The open customer editor: the form's values, their checks, and saving as one op.
import { toFieldmapError, type Customer } from '../../../../src-shared';
import type { TimeUnit } from '../../../../src-shared/time-units';
import type { ChangeWriter } from './change-writer';
import {
  changedFields,
  fieldsOf,
  formValuesOf,
  validateForm,
  type FormErrors,
  type FormValues,
} from './customer-form';

export class CustomerEditor {
  /** The record being edited, or null for a new customer. */
  readonly id: string | null;
  values: FormValues = $state() as FormValues;
  #initial: FormValues;
  /** The account's unit of lastVisit/remindAt: what the form's dates are written in. */
  readonly #unit: TimeUnit;
  #colors: readonly string[] = [];
  /** Errors are shown once the rep tried to save or left a field. */
  #touched = $state<Set<keyof FormValues>>(new Set());
  #submitted = $state(false);
  #saving = $state(false);
  #failure = $state<string | null>(null);
  #errors = $derived(validateForm(this.values, this.#colors));

  constructor(record: Customer | null, colors: readonly string[], unit: TimeUnit) {
    this.id = record?.id ?? null;
    this.#colors = colors;
    this.#initial = formValuesOf(record);
    this.values = formValuesOf(record);
    if (!record && colors.length > 0 && !colors.includes(this.values.color))
      this.values.color = colors[0]!;
    this.#unit = unit;
  }

  get isNew(): boolean {
    return this.id === null;
  }

  get saving(): boolean {
    return this.#saving;
  }

  /** Why the last save failed (the service's or main's message), or null. */
  get failure(): string | null {
    return this.#failure;
  }

  /** The errors to show now (a field's error appears once it was left or a save was tried). */
  get shownErrors(): FormErrors {
    if (this.#submitted) return this.#errors;
    const shown: FormErrors = {};
    for (const key of this.#touched) if (this.#errors[key]) shown[key] = this.#errors[key];
    return shown;
  }

  get valid(): boolean {
    return Object.keys(this.#errors).length === 0;
  }

  get dirty(): boolean {
    return this.isNew || Object.keys(this.#changes()).length > 0;
  }

  touch(field: keyof FormValues): void {
    if (!this.#touched.has(field)) this.#touched = new Set([...this.#touched, field]);
  }

  setPosition(lat: number, lng: number): void {
    this.values.latitude = lat.toFixed(6);
    this.values.longitude = lng.toFixed(6);
    this.touch('latitude');
    this.touch('longitude');
  }

  toggleGroup(group: string): void {
    const groups = this.values.groups;
    this.values.groups = groups.includes(group)
      ? groups.filter((g) => g !== group)
      : [...groups, group];
  }

  #changes() {
    return changedFields(this.#initial, this.values, fieldsOf(this.values, this.#unit));
  }

  /** Queues the record's deletion; true when queued. */
  async delete(writer: ChangeWriter): Promise<boolean> {
    if (this.id === null) return false;
    this.#failure = null;
    try {
      await writer.deleteCustomer(this.id);
      return true;
    } catch (error) {
      this.#failure = toFieldmapError(error).message;
      return false;
    }
  }

  /** The position typed in the form, when both coordinates are valid. */
  get position(): { lat: number; lng: number } | null {
    if (this.#errors.latitude || this.#errors.longitude) return null;
    const lat = this.values.latitude.trim();
    const lng = this.values.longitude.trim();
    return lat === '' || lng === '' ? null : { lat: Number(lat), lng: Number(lng) };
  }

  /** Queues the change; returns the record's id (a temp id for a new one) or null when invalid. */
  async save(writer: ChangeWriter): Promise<string | null> {
    this.#submitted = true;
    this.#failure = null;
    if (!this.valid || this.#saving) return null;
    this.#saving = true;
    try {
      if (this.id === null) return await writer.createCustomer(fieldsOf(this.values, this.#unit));
      await writer.updateCustomer(this.id, this.#changes());
      return this.id;
    } catch (error) {
      this.#failure = toFieldmapError(error).message;
      return null;
    } finally {
      this.#saving = false;
    }
  }
}
