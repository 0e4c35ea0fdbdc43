// The one source of what custom0..custom9 are called: the names the account gives them in its
// user metadata, else "Custom field N". Every view that names a custom field (editor, details,
// planner, import) reads these; where a rep picks a field, one the account did not name and no
// customer uses is left out (offeredCustomFields).
import { CUSTOM_FIELD_KEYS, type Customer, type CustomFieldKey } from '../../../../src-shared';
import { text } from './text';

export type CustomFieldName = {
  key: CustomFieldKey;
  /** What the rep reads: the account's name for the field, or "Custom field N". */
  label: string;
  /** True when the account's user metadata names it. */
  named: boolean;
  /** True when at least one customer holds a value in it. */
  used: boolean;
};

/**
 * The account's names by slot, from user metadata's `customFields` (names to integers). The spec
 * does not say what the integers mean, and accounts keep other numbers there too (a quota, a
 * weekly visit goal). An entry whose number is 0..9 names custom0..custom9; a slot two entries
 * claim stays unnamed (no guess), and any other entry names nothing.
 */
export function namesBySlot(customFields: unknown): Array<string | null> {
  const names: Array<string | null> = CUSTOM_FIELD_KEYS.map(() => null);
  if (!customFields || typeof customFields !== 'object' || Array.isArray(customFields))
    return names;
  const claims = new Map<number, string[]>();
  for (const [name, slot] of Object.entries(customFields as Record<string, unknown>)) {
    if (!Number.isInteger(slot) || (slot as number) < 0 || (slot as number) > 9) continue;
    if (name.trim() === '') continue;
    claims.set(slot as number, [...(claims.get(slot as number) ?? []), name.trim()]);
  }
  for (const [slot, claimed] of claims) if (claimed.length === 1) names[slot] = claimed[0]!;
  return names;
}

const holds = (value: unknown): boolean =>
  value !== null && value !== undefined && String(value).trim() !== '';

/** The custom fields a customer holds a value in (the page counts these: KeyCounts). */
export function heldCustomFields(customer: Customer): CustomFieldKey[] {
  return CUSTOM_FIELD_KEYS.filter((key) => holds(customer[key]));
}

/** Which custom fields any customer holds a value in, from the count of customers per field. */
export function usedCustomFields(held: ReadonlyMap<string, number>): boolean[] {
  return CUSTOM_FIELD_KEYS.map((key) => (held.get(key) ?? 0) > 0);
}

/** Every custom field with its name, in slot order. */
export function customFieldNames(
  customFields: unknown,
  used: readonly boolean[],
): CustomFieldName[] {
  const names = namesBySlot(customFields);
  return CUSTOM_FIELD_KEYS.map((key, i) => ({
    key,
    label: names[i] ?? text.editor.unnamedField(i + 1),
    named: names[i] !== null,
    used: used[i] ?? false,
  }));
}

/** The fields a rep may pick: named or used ones, and any in `keep` (a value already chosen). */
export function offeredCustomFields(
  fields: readonly CustomFieldName[],
  keep: ReadonlyArray<string | null | undefined> = [],
): CustomFieldName[] {
  return fields.filter((f) => f.named || f.used || keep.includes(f.key));
}
