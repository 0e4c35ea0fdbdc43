// The map's own text: its panel and key, pin popups, the position picker and the credits.

export const text = {
  layers: {
    legend: 'Layers',
    customers: 'Customers',
    territories: 'Territories',
    routes: 'Routes',
    fit: 'Fit to data',
  },
  nearCentre: 'Near map centre',
  nearCentreHint: 'Customers near the centre of the map',
  colourBy: {
    label: 'Colour pins by',
    legend: 'Pin colors',
    /** The folded key's button, and the button that folds it. */
    show: 'Legend',
    hide: 'Hide legend',
    color: 'Pin colour',
    visitAge: 'Days since visit',
    reminder: 'Reminder due',
    reminderDue: 'Reminder due',
    reminderLater: 'Reminder later',
    reminderNone: 'No reminder',
  },
  popup: {
    logVisit: 'Log visit',
    addToPlan: 'Add to plan',
    inPlan: 'In plan',
    nearby: 'Customers nearby',
    pending: 'Changes not yet synced',
  },
  positionPicker: 'Position being edited (drag to move)',
  attribution: {
    bundled: 'Natural Earth (public domain) · US Census Bureau via us-atlas · Fonts: DejaVu',
    regions: '© OpenStreetMap contributors (ODbL) · Protomaps',
  },
};
