// The areas the panel proposes, named as a rep names the place: a customers' area by its
// customers' most common city, with how many other towns it holds ("Wichita and 3 nearby
// towns"), a territory by its name. The plan itself (area-plan.ts) is made in the areas worker;
// the words are made here, on the page, where text.ts and the formatter live.
import type { LngLat } from '../../../../src-shared';
import { planAreas, type AreaPlan, type Bounds, type PlacedCustomer } from './area-plan';
import { latitude, longitude } from './region-format';
import { text } from './text';

export {
  LINK_KM,
  MARGIN_KM,
  MAX_SPAN_KM,
  boundsOf,
  heldOffline,
  type AreaPlan,
  type Bounds,
  type PlacedCustomer,
} from './area-plan';

export interface ProposedArea {
  name: string;
  bounds: Bounds;
  /** Customers or territory points inside. */
  count: number;
  kind: 'customers' | 'territory';
}

function nameOf(area: AreaPlan): string {
  if (area.kind === 'territory')
    return area.parts > 1 ? text.download.part(area.name, area.part, area.parts) : area.name;
  if (area.main) return text.download.cityArea(area.main.city, area.main.others);
  return text.download.customersNear(
    area.count,
    latitude(area.center[1], 2),
    longitude(area.center[0], 2),
  );
}

/** Customers' areas that would share a name (two parts of one metro, two Springfields) are told apart. */
function numberAlike(areas: ProposedArea[]): void {
  const byName = new Map<string, ProposedArea[]>();
  for (const area of areas) byName.set(area.name, [...(byName.get(area.name) ?? []), area]);
  for (const [name, alike] of byName) {
    if (alike.length < 2) continue;
    alike.forEach((area, i) => (area.name = text.download.part(name, i + 1, alike.length)));
  }
}

/** The plan in words, in its order. */
export function nameAreas(plan: readonly AreaPlan[]): ProposedArea[] {
  const named = plan.map((area) => ({
    name: nameOf(area),
    bounds: area.bounds,
    count: area.count,
    kind: area.kind,
  }));
  numberAlike(named.filter((area) => area.kind === 'customers'));
  return named;
}

/** The plan and its names at once, on the calling thread (the worker does the plan at scale). */
export function proposeAreas(
  customers: readonly PlacedCustomer[],
  territories: ReadonlyArray<{ name: string; points: readonly LngLat[] }>,
): ProposedArea[] {
  return nameAreas(planAreas(customers, territories));
}
