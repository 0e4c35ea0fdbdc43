// One day of a week plan after the rep's edits: its schedule from the planner's own model
// (describePlan on a problem of that day's stops alone, in the rep's order), and what, if
// anything, makes it not fit: back after the day's hours, or a visit after its window closed.
import {
  describePlan,
  PlanProblem,
  type PlannedDay,
  type WeekPlanInput,
} from '../../../../src-shared/week-plan';
import { text } from './text';

export interface DaySchedule extends PlannedDay {
  /** Why the day does not fit, as the rep reads it; empty when it fits. */
  problems: string[];
}

/** The schedule of day `d` visiting `ids` in this order (ids of the input's stops). */
export function scheduleDay(
  input: WeekPlanInput,
  d: number,
  ids: readonly string[],
  nameOf: (id: string) => string,
): DaySchedule {
  const hours = input.days[d]!;
  if (ids.length === 0)
    return { visits: [], km: 0, travelMin: 0, returnMin: hours.startMin, problems: [] };
  const byId = new Map(input.stops.map((s) => [s.id, s]));
  // The day alone: a stop's pin to a day (if any) is about the week, not this one-day problem.
  const stops = ids.map((id) => {
    const { position, serviceMin, window } = byId.get(id)!;
    return { id, position, serviceMin, window };
  });
  const problem = new PlanProblem({ ...input, stops, days: [hours] });
  const day = describePlan(problem, [stops.map((_, i) => i + 1)]).days[0]!;
  const problems: string[] = [];
  day.visits.forEach((visit, i) => {
    const window = stops[i]!.window;
    if (window && visit.startMin > window.closeMin + 1e-9)
      problems.push(text.schedule.lateVisit(nameOf(visit.id), visit.startMin, window.closeMin));
  });
  if (day.returnMin > hours.endMin + 1e-9)
    problems.push(text.schedule.lateReturn(day.returnMin, hours.endMin));
  return { ...day, problems };
}
