// The screen colour of each of the spec's color names: one table for every view (pins, list
// dots, editor, details, summaries), so a rep never sees two colours for one customer.
import { PALETTE } from './domain';

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
