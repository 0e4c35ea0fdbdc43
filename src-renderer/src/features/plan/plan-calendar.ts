// A week plan, one of its days, or the route being built as an .ics file for the rep's calendar
// (src-shared/ics.ts writes it). Planned minutes are the rep's local clock on the plan's dates;
// the file holds them in UTC. UIDs name the plan (its first day, or the route's name) and the
// customer, so exporting again after a change (a stop moved to another day too) replaces them.
import { customerLink } from '../../../../src-shared/customer-link';
import { haversineMeters } from '../../../../src-shared/geo';
import { icsCalendar, stableKey, visitUid, type CalendarVisit } from '../../../../src-shared/ics';
import type { CustomerView } from '../../types';
import { isoDay, planDates } from './week-plan-form';
import type { WeekPlanState } from './week-plan-state.svelte';
import { text } from './text';

export interface CalendarFile {
  fileName: string;
  text: string;
}

type CustomerOf = (id: string) => CustomerView | undefined;

/** The instant of `minutes` after local midnight of `date`. */
const at = (date: Date, minutes: number) =>
  new Date(date.getFullYear(), date.getMonth(), date.getDate(), 0, Math.round(minutes)).getTime();

function visit(
  planKey: string,
  id: string,
  customer: CustomerView | undefined,
  date: Date,
  startMin: number,
  endMin: number,
): CalendarVisit {
  const name = customer?.name.trim() || customer?.company.trim() || text.calendar.customer;
  const place = customer
    ? [customer.address, customer.city, customer.state, customer.zip, customer.country]
    : [];
  const details = customer
    ? [
        customer.company && text.calendar.company(customer.company),
        customer.phone && text.calendar.phone(customer.phone),
        customer.notes && text.calendar.notes(customer.notes),
      ]
    : [];
  return {
    uid: visitUid(planKey, id),
    startMs: at(date, startMin),
    endMs: at(date, endMin),
    summary: text.calendar.visit(name),
    location: place.filter((s) => s.trim() !== '').join(', '),
    description: [...details.filter(Boolean), text.calendar.open(customerLink(id))].join('\n'),
    url: customerLink(id),
  };
}

/** The plan's days (all, or only `day`) as a calendar file; null when no visit is planned. */
export function weekPlanCalendar(
  plan: WeekPlanState,
  customerOf: CustomerOf,
  day: number | null,
  now = Date.now(),
): CalendarFile | null {
  const outcome = plan.outcome;
  if (!outcome) return null;
  const dates = planDates(outcome.firstDay, outcome.input.days.length);
  const firstDay = isoDay(dates[0]!);
  const nameOf = (id: string) => customerOf(id)?.name ?? id;
  const visits = plan
    .schedules(nameOf)
    .flatMap((schedule, d) =>
      day !== null && d !== day
        ? []
        : schedule.visits.map((v) =>
            visit(`plan-${firstDay}`, v.id, customerOf(v.id), dates[d]!, v.startMin, v.departMin),
          ),
    );
  if (visits.length === 0) return null;
  const label = day === null ? `week-plan-${firstDay}` : `day-plan-${isoDay(dates[day]!)}`;
  const name = day === null ? text.calendar.week(firstDay) : text.calendar.day(isoDay(dates[day]!));
  return { fileName: `${label}.ics`, text: icsCalendar(visits, now, name) };
}

/** Travel as the week planner reckons it by default: 40 km/h over 1.3 x the great circle. */
const SPEED_KMH = 40;
const ROAD_FACTOR = 1.3;

/**
 * The route's stops in order on `day` (YYYY-MM-DD) from `startMin`, each `visitMin` long, with
 * the drive between mapped stops in between; null when the route has no stop.
 */
export function routeCalendar(
  routeName: string,
  stops: readonly string[],
  customerOf: CustomerOf,
  day: string,
  startMin: number,
  visitMin: number,
  now = Date.now(),
): CalendarFile | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (stops.length === 0 || !m) return null;
  const date = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  const name = routeName.trim() || text.calendar.route;
  const planKey = `route-${stableKey(name)}`;
  let clock = startMin;
  let previous: CustomerView['position'] = null;
  const visits = stops.map((id) => {
    const customer = customerOf(id);
    const position = customer?.position ?? null;
    if (previous && position)
      clock += ((haversineMeters(previous, position) / 1000) * ROAD_FACTOR * 60) / SPEED_KMH;
    if (position) previous = position;
    const event = visit(planKey, id, customer, date, clock, clock + visitMin);
    clock += visitMin;
    return event;
  });
  return {
    fileName: `route-${isoDay(date)}.ics`,
    text: icsCalendar(visits, now, name),
  };
}
