// The rep's unit of distance, kept on this computer. Until the rep chooses, it follows the
// locale's region as road signs there do: miles in the United States (and its territories),
// the United Kingdom, Liberia and Myanmar; kilometres everywhere else.
export type DistanceUnit = 'km' | 'mi';

const STORAGE_KEY = 'fieldmap:distance-unit';
const MILE_REGIONS = new Set(['US', 'GB', 'LR', 'MM', 'PR', 'VI', 'GU', 'AS', 'MP', 'UM']);

export function isDistanceUnit(value: unknown): value is DistanceUnit {
  return value === 'km' || value === 'mi';
}

/** The unit a locale's region drives in; kilometres when the locale names no region. */
export function defaultDistanceUnit(locale: string): DistanceUnit {
  try {
    const region = new Intl.Locale(locale).maximize().region;
    return region !== undefined && MILE_REGIONS.has(region) ? 'mi' : 'km';
  } catch {
    return 'km';
  }
}

type Store = Pick<Storage, 'getItem' | 'setItem'>;

export class DistanceUnits {
  #unit = $state<DistanceUnit>('km');

  constructor(
    private readonly storage: Store | null,
    locale: string,
  ) {
    const stored = storage?.getItem(STORAGE_KEY);
    this.#unit = isDistanceUnit(stored) ? stored : defaultDistanceUnit(locale);
  }

  get unit(): DistanceUnit {
    return this.#unit;
  }

  set unit(unit: DistanceUnit) {
    this.#unit = unit;
    this.storage?.setItem(STORAGE_KEY, unit);
  }
}

/** The app's one setting, read by every distance the formatter writes. */
export const distanceUnits = new DistanceUnits(
  typeof localStorage === 'undefined' ? null : localStorage,
  typeof navigator === 'undefined' ? 'en' : navigator.language,
);
