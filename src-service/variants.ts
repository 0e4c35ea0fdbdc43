// Checks variant settings (they may come from CLI flags) before the service uses them.
import { timezoneMismatch, TIMEZONE_VARIANTS } from './timestamps';
import { DEFAULT_VARIANTS, type Variants } from './types';

export const VARIANT_CHOICES: { [K in keyof Variants]: readonly Variants[K][] } = {
  createMessage: ['with-id', 'without-id', 'short-with-id', 'id-field'],
  put: ['patch', 'replace'],
  rateLimited: ['retry-after', 'retry-after-date', 'no-retry-after', '503'],
  forbiddenBody: ['json', 'html'],
  timezoneType: [1, 2, 3],
  unmapped: ['null', 'zero'],
  dealAmount: ['number', 'string'],
  timezone: TIMEZONE_VARIANTS,
  timestampFraction: ['none', 'micro'],
  writtenForm: ['parsed', 'kept'],
  store: ['as-sent', 'normalising'],
  contentType: ['json', 'php-default'],
  bodyPrefix: ['none', 'bom', 'newline', 'php-warning'],
  jsonStyle: ['compact', 'php-pretty'],
  charset: ['utf-8', 'utf-8-labelled-latin1', 'latin1', 'latin1-labelled-utf-8'],
  transfer: ['length', 'chunked'],
  arrays: ['list', 'php-objects'],
  numbers: ['typed', 'strings'],
  emptyText: ['string', 'null'],
  ids: ['text', 'numeric'],
  errors: ['status', '200'],
  writeStatus: ['spec', 'no-content'],
  missingCustomer: ['404', 'null', 'false', 'empty-array', 'empty-body'],
  noHits: ['array', 'object', 'null', 'false', '404'],
  serverError: ['json', 'php-html'],
  repeatedRow: ['none', 'first-again'],
};

/**
 * Throws when a given variant is unknown, has a value outside its choices, or does not fit the
 * variants it is applied over (`current`): a timezone must be a designator of the timezone_type.
 */
export function checkVariants(
  variants: Partial<Variants>,
  current: Variants = DEFAULT_VARIANTS,
): Partial<Variants> {
  for (const [key, value] of Object.entries(variants)) {
    const choices = VARIANT_CHOICES[key as keyof Variants] as readonly unknown[] | undefined;
    if (!choices) throw new Error(`unknown variant "${key}"`);
    if (value !== undefined && !choices.includes(value)) {
      throw new Error(`variant ${key} must be one of ${choices.join(', ')}`);
    }
  }
  const merged = { ...current, ...variants };
  const mismatch = timezoneMismatch(merged.timezoneType, merged.timezone);
  if (mismatch) throw new Error(mismatch);
  return variants;
}
