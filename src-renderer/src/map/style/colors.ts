// Pin colours as one MapLibre `match` expression over the one colour table (src-shared/palette),
// so the GPU picks the colour per feature (no per-feature paint work in JS).
import type { ExpressionSpecification } from 'maplibre-gl';
import { PALETTE } from '../../../../src-shared';
import { COLOR_HEX, FALLBACK_HEX, colorHex } from '../../../../src-shared/palette';

/** `match` over the whole palette on the feature property `prop`, with the fallback colour. */
export function colorMatchExpression(prop = 'color'): ExpressionSpecification {
  const branches = PALETTE.flatMap((name) => [name, COLOR_HEX[name]]);
  // MapLibre types a match as a fixed tuple; a spread of label/value pairs needs the cast.
  return ['match', ['get', prop], ...branches, FALLBACK_HEX] as unknown as ExpressionSpecification;
}

export type LegendEntry = { name: string; hex: string; known: boolean };

/** Legend rows: the account's colours when known, else the spec's palette. */
export function legendEntries(palette?: readonly string[]): LegendEntry[] {
  const names = palette && palette.length > 0 ? palette : PALETTE;
  return [...new Set(names)].map((name) => ({
    name,
    hex: colorHex(name),
    known: Object.hasOwn(COLOR_HEX, name),
  }));
}
