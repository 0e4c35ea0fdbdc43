// The account's custom-fields object (names to integers) as editable rows, checked per row.
// The service merges what it is sent, so only new or changed entries go out.
import type { CustomFieldsBody } from '../../../../src-shared';
import { text } from './text';

export type CustomFieldRow = { name: string; value: string };
export type CustomFieldRowErrors = { name?: string; value?: string };

/** The rows of an account's current custom fields. */
export function customFieldRowsOf(current: Record<string, unknown> | undefined): CustomFieldRow[] {
  return Object.entries(current ?? {}).map(([name, value]) => ({ name, value: String(value) }));
}

/** Each row's problems (same order as the rows). */
export function validateCustomFields(rows: readonly CustomFieldRow[]): CustomFieldRowErrors[] {
  const counts = new Map<string, number>();
  for (const row of rows) counts.set(row.name.trim(), (counts.get(row.name.trim()) ?? 0) + 1);
  return rows.map((row) => {
    const errors: CustomFieldRowErrors = {};
    const name = row.name.trim();
    if (name === '') errors.name = text.customFields.needName;
    else if (name.length > 200) errors.name = text.customFields.nameTooLong;
    else if ((counts.get(name) ?? 0) > 1) errors.name = text.customFields.nameTwice;
    const value = row.value.trim();
    if (!/^-?\d+$/.test(value) || !Number.isSafeInteger(Number(value)))
      errors.value = text.customFields.needWholeNumber;
    return errors;
  });
}

/** The body to send: rows that are new or changed; null when nothing changed. */
export function customFieldsChanges(
  rows: readonly CustomFieldRow[],
  current: Record<string, unknown> | undefined,
): CustomFieldsBody | null {
  const body: Record<string, number> = {};
  for (const row of rows) {
    const name = row.name.trim();
    const value = Number(row.value.trim());
    if (current?.[name] !== value) body[name] = value;
  }
  return Object.keys(body).length > 0 ? body : null;
}
