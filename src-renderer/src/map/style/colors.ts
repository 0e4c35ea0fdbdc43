// Pin colours: the spec's 15 color names mapped to screen colours, as one MapLibre `match`
// expression so the GPU picks the colour per feature (no per-feature paint work in JS).
import type { ExpressionSpecification } from 'maplibre-gl';
import { PALETTE } from '../../../../src-shared';

/** Screen colour of every color name of the spec's palette. */
export const COLOR_HEX: Readonly<Record<(typeof PALETTE)[number], string>> = {
  black: '#1f2328',
  green: '#2e9d4a',
  blue: '#2f6fde',
  grey: '#8a9199',
  orange: '#f28c28',
  pink: '#f06bb0',
  purple: '#8048c8',
  red: '#d93a3a',
  teal: '#159e9e',
  yellow: '#e8c21e',
  'neon red': '#ff1744',
  'neon yellow': '#eeff00',
  'neon green': '#39ff14',
  'neon blue': '#1f51ff',
  'neon purple': '#bc13fe',
};

/** Colour of a name outside the palette (an account may define its own names). */
export const FALLBACK_HEX = '#b4b8bd';

/** The screen colour of a color name, case-sensitive like the service. */
export function colorHex(name: string): string {
  return Object.hasOwn(COLOR_HEX, name) ? COLOR_HEX[name as keyof typeof COLOR_HEX] : FALLBACK_HEX;
}

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
