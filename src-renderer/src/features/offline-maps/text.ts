// Offline maps' own text: the panel (regions, online style, tile cache), Download my area, the
// hint shown while an area is drawn, and how a region's place and data date read.
import { format } from '../../ui/format';

export const text = {
  panel: {
    title: 'Offline maps',
    close: 'Close',
  },
  regions: {
    title: 'Offline regions',
    none: 'No offline regions yet. Download your area below to see streets without signal.',
    list: 'Offline regions',
    dataOf: (date: string) => `Data of ${date}`,
    update: 'Update',
    updateLabel: (name: string) => `Update ${name}`,
    remove: 'Remove',
    removeLabel: (name: string) => `Remove ${name}`,
    pick: 'Add region…',
    added: (name: string) => `Added ${name}.`,
    removed: (name: string) => `Removed ${name}.`,
    updating: (name: string) => `Updating ${name}.`,
    confirmTitle: 'Remove this offline region?',
    confirmMessage: (name: string, size: string) =>
      `${name} (${size}) will be deleted from this computer. The map shows less detail there until you add it again.`,
    confirm: 'Remove region',
    /** A data date nobody knows (an archive without one). */
    unknownDate: 'unknown',
    /** "37.5°N–39.5°N, 99.0°W–97.0°W": south to north, then west to east. */
    bounds: (south: string, north: string, west: string, east: string) =>
      `${south}–${north}, ${west}–${east}`,
    latitude: (degrees: string, south: boolean) => `${degrees}°${south ? 'S' : 'N'}`,
    longitude: (degrees: string, west: boolean) => `${degrees}°${west ? 'W' : 'E'}`,
  },
  online: {
    title: 'Online map',
    field: 'Online map style address (https; empty for none)',
    placeholder: 'https://tiles.example.com/style.json',
    save: 'Save address',
    off: 'Online map turned off.',
    saved: 'Online map saved.',
    /** Why the online style is not drawn; the offline map stays. */
    failed: (reason: string | null) =>
      `The online map could not be loaded (${reason ?? 'error'}); the offline map is shown.`,
  },
  cache: {
    title: 'Tile cache',
    usage: (used: number, cap: number, files: number) =>
      `Using ${format.storage(used)} of ${format.megabytes(cap)} (${format.counted(files, 'file', 'files')})`,
    capacity: 'Capacity (MB)',
    save: 'Save capacity',
    outOfRange: (minMb: number, maxMb: number) =>
      `The tile cache capacity must be between ${format.count(minMb)} MB and ${format.count(maxMb)} MB (${format.count(maxMb / 1024)} GB).`,
    saved: 'Capacity saved.',
  },
  download: {
    title: 'Download my area',
    sourceField: 'Map source for downloads (address of a PMTiles map file)',
    sourcePlaceholder: 'https://build.example.com/planet.pmtiles',
    saveSource: 'Save source',
    adminSource: (url: string) =>
      `Using the map source your administrator set: ${url}. Save your own to use another.`,
    sourceSaved: 'Map source saved.',
    /** No source of the rep's or the administrator's: the public planet build serves. */
    dailyBuild:
      "Areas come from the newest Protomaps daily build of OpenStreetMap, read over the internet only when you check an area's size or download it. Save a map source to use another.",
    sourceClearedToDaily: 'Map source cleared: the newest Protomaps daily build is used.',
    adminOff:
      'Your administrator turned the default map source off: save a map source here to download areas.',
    sourceClearedToAdmin: "Map source cleared: your administrator's default is used.",
    sourceCleared: 'Map source cleared.',
    maxZoom: 'Max zoom (15 shows every street)',
    useView: 'Use current view',
    draw: 'Draw an area',
    drawAgain: 'Draw again',
    noAreas: 'No customers or territories with positions yet: use the current view.',
    /** While the areas worker clusters the account's customers. */
    findingAreas: 'Finding your areas…',
    areasFailed: 'Could not find areas around your customers: use the current view or draw one.',
    areas: 'Areas to download',
    drawnArea: 'Drawn area',
    currentView: 'Current view',
    reading: "Reading the source's index…",
    estimate: (bytes: number, tiles: number, dataDate: string, maxZoom: number) =>
      `${format.megabytes(bytes)} · ${format.counted(tiles, 'tile', 'tiles')} · data of ${dataDate} · max zoom ${format.count(maxZoom)}`,
    download: 'Download',
    noSource: 'Set a map source under Advanced first',
    checkSize: 'Check size',
    downloading: (name: string) => `Downloading ${name}.`,
    attribution:
      'Street data © OpenStreetMap contributors, under the Open Database License (ODbL); map tiles built by Protomaps.',
    /** A proposed area around customers: "5 customers near 37.71°N, 97.31°W". */
    customersNear: (n: number, lat: string, lon: string) =>
      `${format.counted(n, 'customer', 'customers')} near ${lat}, ${lon}`,
    /** A proposed area named by its main city: "Wichita and 3 nearby towns". */
    cityArea: (city: string, others: number) =>
      others === 0 ? city : `${city} and ${format.counted(others, 'nearby town', 'nearby towns')}`,
    /** An area an offline region on this laptop already covers. */
    held: 'Already on this laptop',
    customerCount: (n: number) => format.counted(n, 'customer', 'customers'),
    /** One of several areas of one name: a wide territory's parts, a metro cut in two. */
    part: (name: string, part: number, parts: number) =>
      `${name} (part ${format.count(part)} of ${format.count(parts)})`,
  },
  downloads: {
    list: 'Downloads',
    bytes: (done: number, total: number) => `${format.storage(done)} of ${format.storage(total)}`,
    paused: (bytes: string) => `${bytes} · paused`,
    left: (bytes: string, left: string) => `${bytes} · ${left}`,
    pause: 'Pause',
    resume: 'Resume',
    dismiss: 'Dismiss',
    cancel: 'Cancel',
  },
  /** Over the map where it has no streets at street zoom (NoStreetsHint.svelte). */
  noStreets: {
    online: 'No streets here yet: connect to the internet, or download your area in Offline maps.',
    offlineOnly: 'No streets here yet: download your area in Offline maps.',
  },
  drawHint: {
    how: 'Click the map at each corner of the area to download. Click the first corner (or press Enter) to finish; Esc cancels.',
    cancel: 'Cancel',
  },
};
