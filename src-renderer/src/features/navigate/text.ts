// The navigate buttons' own words.
export const text = {
  buttons: {
    /** One leg of a day the app cannot take in one link: "stop 3", "stops 1–9". */
    stops: (from: number, to: number) =>
      from === to ? `stop ${from + 1}` : `stops ${from + 1}–${to + 1}`,
    appPicker: 'Navigation app',
  },
  navigator: {
    openFailed: (reason: string) => `The navigation app did not open: ${reason}`,
  },
};
