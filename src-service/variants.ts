// Checks variant settings (they may come from CLI flags) before the service uses them.
import type { Variants } from './types';

export const VARIANT_CHOICES: { [K in keyof Variants]: readonly Variants[K][] } = {
  createMessage: ['with-id', 'without-id'],
  put: ['patch', 'replace'],
  rateLimited: ['retry-after', 'no-retry-after', '503'],
  forbiddenBody: ['json', 'html'],
  timezoneType: [1, 2, 3],
  unmapped: ['null', 'zero'],
  dealAmount: ['number', 'string'],
  store: ['as-sent', 'normalising'],
};

/** Throws when a given variant is unknown or has a value outside its choices. */
export function checkVariants(variants: Partial<Variants>): Partial<Variants> {
  for (const [key, value] of Object.entries(variants)) {
    const choices = VARIANT_CHOICES[key as keyof Variants] as readonly unknown[] | undefined;
    if (!choices) throw new Error(`unknown variant "${key}"`);
    if (value !== undefined && !choices.includes(value)) {
      throw new Error(`variant ${key} must be one of ${choices.join(', ')}`);
    }
  }
  return variants;
}
