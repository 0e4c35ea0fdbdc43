import { format } from '../../ui/format';
import type { DistanceUnit } from '../../ui/units.svelte';

/** The speed unit that goes with a distance unit. */
const speedUnit = (unit: DistanceUnit) => (unit === 'mi' ? 'mph' : 'km/h');

export const text = {
  /** The week table's caption, its distance column in the rep's unit. */
  totalsCaption: (unit: string) => `Visits · ${unit} · hours, before and after optimising`,

  /** WeekPlanPanel: the form. */
  panel: {
    title: 'Plan the week',
    close: 'Close Plan the week',
    customers: 'Customers',
    customersLabel: 'Customers to plan',
    source: {
      plan: 'My plan',
      list: 'The customer list as filtered now',
      selection: 'The customers selected on the map',
      route: 'The customers picked for a route',
    },
    sourceOption: (source: string, n: number) => `${source} (${format.count(n)})`,
    noName: '(no name)',
    startFrom: 'Start from',
    startPoint: 'Start point',
    placePlaceholder: 'latitude, longitude or an address',
    customerPlaceholder: 'customer name',
    addressPlaceholder: 'street and town of a customer',
    coordsPlaceholder: 'latitude, longitude',
    addressHint:
      "Addresses are looked up among your own customers' addresses: there is no address search offline.",
    endAt: 'End at',
    endSame: 'Where the day started',
    endPoint: 'End point',
    firstDay: 'First day',
    days: 'Days',
    dayCount: 'Number of days',
    hours: 'Working hours',
    dayRow: (day: number) => `Day ${format.count(day)}`,
    dayStarts: (day: number) => `Day ${format.count(day)} starts`,
    dayEnds: (day: number) => `Day ${format.count(day)} ends`,
    hoursTo: 'to',
    visitMinutes: 'Visit minutes',
    visitFrom: 'or from',
    visitFromLabel: 'Visit minutes from field',
    visitSame: 'the same for everyone',
    windowsFrom: 'Time windows (e.g. 09:00-12:00) from',
    windowsFromLabel: 'Time windows from field',
    noWindows: 'no time windows',
    speed: (unit: DistanceUnit) => `Average speed (${speedUnit(unit)})`,
    roadFactor: 'Road factor',
    roadHint: 'Distances are straight lines times the road factor (1.3 suits most towns).',
    planning: (n: number) => `Planning ${format.count(n)} customers…`,
    cancel: 'Cancel planning',
    make: 'Make the plan',
    refused: (fields: number) =>
      `No plan yet: ${fields === 1 ? 'one field above says' : `${format.count(fields)} fields above say`} what to fix.`,
    sheetFailed: (why: string) => `The day sheet could not be made: ${why}`,
  },

  /** WeekPlanDays: the plan, day by day. */
  days: {
    section: 'The week plan',
    leaveOut: 'Leave out',
    day: 'Day',
    before: 'Before optimising',
    optimised: (edited: boolean) => `Optimised${edited ? ', with your changes' : ''}`,
    week: 'Week',
    optimisedBefore: (cell: string) => `Optimised before your changes: ${cell}.`,
    total: (visits: number, km: number, minutes: number) =>
      `${format.count(visits)} visits · ${format.distance(km * 1000)} · ${format.duration(minutes)}`,
    backAt: (minutes: number) => `(back at ${format.clock(minutes)})`,
    doesNotFit: (problem: string) => `Does not fit: ${problem}`,
    savedAs: (name: string) => `Saved as the route “${name}”.`,
    routeName: 'Route name',
    routeNameFor: (day: number) => `Route name for day ${format.count(day)}`,
    noVisits: 'No visits.',
    addDayLabel: (day: string) => `Add ${day} to calendar`,
    addDay: 'Add day to calendar (.ics)',
    sheetLabel: (day: string) => `Day sheet of ${day}`,
    sheet: 'Day sheet (PDF)',
    navigate: 'Navigate this day',
    navigateDay: (day: string) => `Navigate ${day}`,
    leave: (minutes: number) => `${format.clock(minutes)} leave the start point`,
    drive: (minutes: number) => `drive ${format.duration(minutes)}`,
    wait: (arrive: number, wait: number) =>
      `, arrive ${format.clock(arrive)}, wait ${format.duration(wait)}`,
    visitUntil: (minutes: number) =>
      `visit until ${format.clock(minutes)}, leave ${format.clock(minutes)}`,
    moveUp: (name: string) => `Move ${name} up`,
    moveDown: (name: string) => `Move ${name} down`,
    moveTo: (name: string) => `Move ${name} to`,
    movePrompt: 'Move to…',
    back: (minutes: number, drive: number) =>
      `${format.clock(minutes)} back at the end point (drive ${format.duration(drive)})`,
    leftOver: (n: number) => `Left over (${format.count(n)})`,
    noneLeft: 'Every customer has a day.',
    putIn: (name: string) => `Put ${name} in`,
    putPrompt: 'Put in…',
    save: 'Save days as routes',
    addWeek: 'Add week to calendar (.ics)',
    allSaved: 'Every day is saved as a route.',
  },

  /** week-plan-form: the kinds of start and end point, and what the form cannot read. */
  form: {
    pointKinds: {
      home: 'Home',
      office: 'Office',
      customer: 'A customer',
      address: 'An address',
      coords: 'Coordinates',
    },
    leftReason: {
      'window-outside-hours': 'its time window is outside the working hours',
      'too-far': 'too far to reach and come back within a working day',
      'no-room': 'no day had room left for it',
      'no-position': 'it has no position on the map',
      'window-unreadable': 'its time window could not be read',
    },
    placeMissing: (kind: 'home' | 'office') =>
      `Type the ${kind}'s coordinates as "latitude, longitude" or an address of one of your customers.`,
    customerMissing: 'Type the name of a customer.',
    addressMissing: 'Type an address.',
    coordsMissing: 'Type the coordinates as "latitude, longitude".',
    coordsUnread: 'Type the coordinates as "latitude, longitude", e.g. 51.5, -0.12.',
    noSuchCustomer: (typed: string) => `No customer is named "${typed}".`,
    noSuchAddress: (typed: string) =>
      `No customer of yours is at "${typed}". Addresses are found among your customers' addresses only (there is no address search offline); type coordinates instead.`,
    endNotOnMap: (label: string) =>
      `${label} has no position on the map: choose another end point.`,
    noStops: 'There are no customers to plan: choose where they come from.',
    hoursUnread: (day: number) =>
      `Type the hours of day ${format.count(day)} as times, e.g. 08:30 and 17:30.`,
    hoursBackwards: (day: number) =>
      `Working hours of day ${format.count(day)} must start before they end.`,
    noDays: 'Plan at least one day.',
    visitUnread: 'Type the visit length in minutes, e.g. 30.',
    speedUnread: (unit: DistanceUnit) =>
      `Type the average speed in ${speedUnit(unit)}, e.g. ${unit === 'mi' ? 25 : 40}.`,
    roadUnread: 'Type the road factor, e.g. 1.3.',
    window: (name: string, open: number, close: number) =>
      `${name} (${format.clock(open)}–${format.clock(close)})`,
    typedValue: (name: string, typed: string) => `${name} ("${typed}")`,
    windowsOutside: (list: string[]) =>
      `These time windows are outside the working hours of every day, so these customers cannot be visited: ${list.join(', ')}.`,
    windowsUnread: (list: string[]) =>
      `These time windows could not be read, so these customers are left out: ${list.join(', ')}. Write them as 09:00-12:00.`,
    visitFieldUnread: (label: string, list: string[]) =>
      `"${label}" is not a number of minutes for ${list.join(', ')}: the default length is used for them.`,
    noneCanBePlanned: 'None of these customers can be planned (see the list of left-over stops).',
  },

  /** week-plan-days: why an edited day does not fit. */
  schedule: {
    lateVisit: (name: string, reached: number, closes: number) =>
      `${name} is reached at ${format.clock(reached)}, after its window closes at ${format.clock(closes)}.`,
    lateReturn: (back: number, end: number) =>
      `The day ends at ${format.clock(back)}, after the working hours end at ${format.clock(end)}.`,
  },

  /** week-plan-state and week-plan-run: planning and saving. */
  state: {
    formUnread: (why: string) => `The form could not be read: ${why}`,
    notStarted: 'the planner did not start',
    noFit:
      'Not one visit fits: the working hours are too short for the visit and the drive there and back. Lengthen the hours or shorten the visits.',
    brokenPlanner: (why: string) => `Planning failed: ${why}.`,
    failed: (why: string) => `Planning failed: ${why}`,
    dayRoute: (day: string) => `${day} – Plan`,
    numberedDayRoute: (day: number) => `Day ${format.count(day)} – Plan`,
    notAllSaved: (why: string) => `Not every day was saved: ${why}`,
  },

  /** day-sheet: the printable day. */
  sheet: {
    goneCustomer: 'Customer no longer in the account',
    noName: '(no name)',
    phone: (phone: string) => `Phone: ${phone}`,
    notes: (notes: string) => `Notes: ${notes}`,
    title: (day: string) => `Day sheet ${day}`,
    heading: (day: string) => `Day sheet · ${day}`,
    back: (minutes: number) => ` · back at ${format.clock(minutes)}`,
    summary: (visits: number, km: number, leave: number, back: string) =>
      `${format.count(visits)} visits · ${format.distance(km * 1000)} · leave ${format.clock(leave)}${back}`,
    number: (i: number) => `${format.count(i)}.`,
    drive: (minutes: number) => `drive ${format.duration(minutes)}`,
  },

  /** plan-calendar: the .ics file's events. */
  calendar: {
    customer: 'Customer',
    route: 'Route',
    company: (company: string) => `Company: ${company}`,
    phone: (phone: string) => `Phone: ${phone}`,
    notes: (notes: string) => `Notes: ${notes}`,
    visit: (name: string) => `Visit: ${name}`,
    open: (link: string) => `Open in Fieldmap: ${link}`,
    week: (firstDay: string) => `Week plan from ${firstDay}`,
    day: (day: string) => `Day plan ${day}`,
  },
};
