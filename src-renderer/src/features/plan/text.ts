export const text = {
  /** The week table's caption, its distance column in the rep's unit. */
  totalsCaption: (unit: string) => `Visits · ${unit} · hours, before and after optimising`,
};
