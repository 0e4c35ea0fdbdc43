// Colour-by: what a pin's fill says. Its own colour (the account's palette), the days since the
// last visit in bands, or whether a reminder is due. Each mode is one data-driven MapLibre
// expression over properties every pin carries already (geojson.ts pinOf: `color`, `age`,
// `due`), so switching is a paint change: no source is rebuilt. Band colours are the design
// tokens of app.css (--fm-visit-*, --fm-reminder), the same ones the detail panel uses.
import type { ExpressionSpecification } from 'maplibre-gl';
import { VISIT_AGE_BUCKETS } from '../../../../src-shared/visits';
import { FALLBACK_HEX } from '../../../../src-shared/palette';
import { colorMatchExpression } from './colors';
import { text } from '../text';

export type ColourBy = 'color' | 'visit-age' | 'reminder';

export const COLOUR_BY_OPTIONS: ReadonlyArray<[ColourBy, string]> = [
  ['color', text.colourBy.color],
  ['visit-age', text.colourBy.visitAge],
  ['reminder', text.colourBy.reminder],
];

/** A legend row of a banded mode: the pin property's value, its name, its colour token. */
export type Band = { key: string; name: string; token: string };

/** The reminder state of a pin (property `due`). */
export type ReminderState = 'due' | 'later' | 'none';

const BANDS: Record<Exclude<ColourBy, 'color'>, { prop: string; bands: readonly Band[] }> = {
  'visit-age': {
    prop: 'age',
    bands: VISIT_AGE_BUCKETS.map((b) => ({
      key: b.key,
      name: b.label,
      token: `--fm-visit-${b.key}`,
    })),
  },
  reminder: {
    prop: 'due',
    bands: [
      { key: 'due', name: text.colourBy.reminderDue, token: '--fm-reminder' },
      { key: 'later', name: text.colourBy.reminderLater, token: '--fm-info' },
      { key: 'none', name: text.colourBy.reminderNone, token: '--fm-visit-never' },
    ],
  },
};

/** The legend rows of a banded mode (none for the pins' own colours: that legend is the palette). */
export function colourByBands(mode: ColourBy): readonly Band[] {
  return mode === 'color' ? [] : BANDS[mode].bands;
}

/** The value of a design token from the page's stylesheet (app.css). */
function tokenHex(token: string): string {
  if (typeof document === 'undefined') return FALLBACK_HEX;
  const value = getComputedStyle(document.documentElement).getPropertyValue(token).trim();
  return value === '' ? FALLBACK_HEX : value;
}

/** The pins' `circle-color` for a mode. */
export function colourByExpression(mode: ColourBy): ExpressionSpecification {
  if (mode === 'color') return colorMatchExpression('color');
  const { prop, bands } = BANDS[mode];
  const branches = bands.flatMap((b) => [b.key, tokenHex(b.token)]);
  // MapLibre types a match as a fixed tuple; a spread of label/value pairs needs the cast.
  return ['match', ['get', prop], ...branches, FALLBACK_HEX] as unknown as ExpressionSpecification;
}
