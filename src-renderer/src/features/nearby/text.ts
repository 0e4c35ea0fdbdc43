import { format } from '../../ui/format';

const KM_PER_MILE = 1.609344;

/** A radius held in km, written in the rep's unit: a mile radius was picked as whole miles. */
function radius(km: number): string {
  const unit = format.distanceUnit;
  const value = unit === 'mi' ? Math.round((km / KM_PER_MILE) * 10) / 10 : km;
  return `${format.count(value)} ${unit}`;
}

export const text = {
  radius,
  /** The radius choices (km) in the rep's unit: round miles in miles. */
  radiiKm: (choices: readonly number[]): number[] =>
    format.distanceUnit === 'mi' ? choices.map((n) => n * KM_PER_MILE) : [...choices],
  none: (km: number) => `No customers within ${radius(km)}`,
  within: (n: number, km: number) => `${format.count(n)} within ${radius(km)}`,
  nearestShown: (within: string, shown: number) => `${within}, nearest ${shown} shown`,
  searching: (km: number) => `Looking for customers within ${radius(km)}…`,
  panel: 'Nearby',
  closePanel: 'Close Nearby',
  nearCentre: 'Near the map centre',
  near: (name: string) => `Near ${name || '(no name)'}`,
  within_: 'Within',
  radiusLabel: 'Radius',
  addAll: "Add all shown to today's plan",
  allIn: "All shown are in today's plan.",
  rows: 'Customers nearby',
  noName: '(no name)',
  open: (name: string) => `Open ${name || '(no name)'}`,
  inPlan: "In today's plan",
  addOne: (name: string) => `Add ${name || '(no name)'} to today's plan`,
  add: "Add to today's plan",
  failed: (why: string) => `The search for customers nearby failed: ${why}.`,
  gone: 'This customer is no longer in the account.',
  noPosition: (name: string) =>
    `${name || '(no name)'} has no position on the map: fix its address first.`,
};
