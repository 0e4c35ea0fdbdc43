// The app shell's own text: the top bar, the sidebar, the tools, the sync status and the
// keyboard shortcuts. Counts and times go through the formatter.
import { changesText } from '../../../src-shared';
import { format } from '../ui/format';

export const text = {
  appName: 'Fieldmap',
  /** Before main says whether an account is signed in, when the page remembers none. */
  opening: 'Opening Fieldmap…',
  tools: {
    group: 'Tools',
    selectOnMap: 'Select on map',
    selectOnMapHint: 'Select customers with a lasso or a box, then change them together',
    offlineMaps: 'Offline maps',
    planWeek: 'Plan the week',
    planWeekHint: 'Spread customers over the days of a week (W)',
  },
  overlays: {
    navigate: 'Navigate',
    navigateTo: (name: string) => `Navigate to ${name || 'this customer'}`,
  },
  topBar: {
    syncViews: 'Sync views',
    changes: 'Changes',
    needAttention: (n: number) => `, ${format.counted(n, 'needs', 'need')} attention`,
    conflicts: 'Conflicts',
    search: 'Search customers',
    searchPlaceholder: 'Search customers  ( / )',
  },
  sidebar: {
    label: 'Customers and places',
    newCustomer: 'New customer',
    newCustomerHint: 'New customer (N)',
    buildRoute: 'Build route',
    buildRouteHint: 'Build a route (R)',
    tabs: {
      customers: 'Customers',
      unmapped: 'Unmapped',
      territories: 'Territories',
      routes: 'Routes',
    },
    customersList: 'Customers',
    unmappedList: 'Unmapped customers',
    signedOut: 'Not signed in.',
  },
  workflow: {
    label: 'Workflow',
    visitFilter: 'Filter by visit',
    importFile: 'Import CSV or Excel',
    exporting: (done: number, total: number) =>
      `Exporting ${format.count(done)} of ${format.count(total)}…`,
    cancelExport: 'Cancel export',
    exportHint: (n: number) => `Export the customers in the list (${format.count(n)}) to CSV`,
    exportShown: (n: number) => `Export ${format.count(n)} shown`,
    exportAll: 'Export CSV',
    mapPng: 'Map PNG',
    mapPngFailed: 'The map could not be saved as an image.',
    dismissImport: 'Dismiss import',
  },
  syncStatus: {
    progress: 'Sync progress',
    signInAgain: 'Sign in again',
    syncNowHint: 'Sync now (Ctrl+Shift+S)',
    tryNow: 'Try now',
    syncNow: 'Sync now',
    waiting: (changes: string) => `${changes} waiting to be sent`,
    attention: (n: number) => `${changesText(n)} ${format.plural(n, 'needs', 'need')} attention`,
    receiving: (done: number, total: number) =>
      `Receiving customers: ${format.count(done)} of ${format.count(total)}`,
    saving: (done: number, total: number) =>
      `Saving ${format.count(done)} of ${format.count(total)} on this laptop`,
    /** A save whose count is not known (or none): no "0 of 0". */
    savingUncounted: 'Saving on this laptop…',
    showing: (total: number) => `Showing ${format.count(total)} customers…`,
    /** The list's first read of what the laptop's cache holds (a restart). */
    reading: 'Reading customers on this laptop…',
    /** What the page is busy with, after what the rep must not miss ("Offline — … · reading…"). */
    alongside: (doing: string) => ` · ${doing.charAt(0).toLowerCase()}${doing.slice(1)}`,
    keptLater: ' — changes are kept and sent later',
    kept: (queued: string) => ` — ${queued}`,
    stayQueued: ' — changes stay queued',
    nextTry: (wait: string) => ` · next try in ${wait}`,
    trying: ' · trying again…',
    signedOut: 'Not signed in',
    opening: 'Opening…',
    lastSynced: (ms: number) => `Last synced ${format.dateTime(ms)}`,
    unreachable: (kept: string) => `Service not reachable${kept}`,
    offline: (kept: string) => `Offline${kept}`,
    offNetwork: (kept: string) =>
      `Not on the office network (this network is not on the account's allow-list)${kept}`,
    authRequired: (kept: string) => `Sign-in needed — the service refused the password${kept}`,
    eta: (wait: string) => ` · about ${wait} left`,
    sending: (changes: string) => `Sending ${changes}`,
    downloading: 'Downloading customers…',
    syncing: 'Syncing',
    syncedAt: (ms: number) => `Synced at ${format.dateTime(ms)}`,
    error: (message: string, kept: string) => `Sync error: ${message}${kept}`,
    /** The cache worker could not save main's data: the rep's changes are safe in main's outbox. */
    notSaved: (why: 'quota' | 'storage', queued: string) =>
      `Customers not saved on this laptop: ${why === 'quota' ? 'the disk is full' : 'its storage failed'}. ` +
      `No change is lost${queued ? ` (${queued})` : ''} — ` +
      (why === 'quota' ? 'free some disk space' : 'free some disk space or restart Fieldmap'),
    theService: 'the service',
  },
  shortcuts: {
    help: 'Keyboard shortcuts',
    keys: {
      ctrlS: 'Ctrl+S',
      ctrlShiftS: 'Ctrl+Shift+S',
      esc: 'Esc',
    },
    newCustomer: 'New customer',
    search: 'Search customers',
    route: 'Build a route',
    week: 'Plan the week',
    changes: 'Open the Changes view',
    save: 'Save the customer being edited',
    sync: 'Sync now',
    close: 'Close the panel or dialog',
  },
};
