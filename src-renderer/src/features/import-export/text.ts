// Import and export's own text: the import dialog, the import chip, a file refused while it is
// read, and an export that failed.
import { format } from '../../ui/format';

export const text = {
  dialog: {
    title: 'Import customers from CSV or Excel',
    file: 'CSV or Excel file',
    reading: (name: string) => `Reading ${name}…`,
    rows: (name: string, n: number) => `${name}: ${format.count(n)} rows.`,
    readAs: (how: string) => `Read as ${how}.`,
    column: 'Column',
    field: 'Field',
    firstValues: 'First values',
    fieldFor: (header: string) => `Field for column ${header}`,
    ignore: '(ignore)',
    /** The customer fields a column can fill, as the editor names them (not the API's keys). */
    fields: {
      name: 'Name',
      company: 'Company',
      address: 'Street address',
      city: 'City',
      state: 'State / region',
      zip: 'Postal code',
      country: 'Country',
      email: 'Email',
      phone: 'Phone',
      color: 'Pin colour',
      groups: 'Groups',
      dealAmount: 'Deal amount',
      notes: 'Notes',
      latitude: 'Latitude',
      longitude: 'Longitude',
      lastVisit: 'Last visit',
      numVisits: 'Visits',
      remindAt: 'Reminder',
      remindType: 'Reminder type',
    } as Record<string, string>,
    /** A custom field by the account's name for it. */
    customField: (label: string) => `${label} (custom field)`,
    /** Around the number to import, which is shown in bold. */
    toImport: (invalid: number, duplicates: number) =>
      ` to import, ${format.count(invalid)} invalid, ${format.count(duplicates)} duplicates skipped.`,
    invalidRows: 'Invalid rows',
    duplicates: 'Duplicates (same name and address)',
    row: (n: number) => `Row ${n}`,
    line: (n: number) => `Line ${n}`,
    repeats: (where: string) => `repeats ${where.toLowerCase()}`,
    alreadyCustomer: 'already a customer',
    unreadable: 'The file could not be read.',
    cancel: 'Cancel',
    start: (n: number) => `Import ${format.count(n)} customers`,
  },
  file: {
    unreadable: 'The file could not be read.',
    lyingBom: (encoding: string) =>
      `It starts with a ${encoding} byte-order mark but is not ${encoding} text.`,
    emptySheet: (sheet: string) => `The sheet "${sheet}" is empty.`,
    noHeader: 'The file has no header row.',
  },
  chip: {
    attention: (n: number) => `, ${format.counted(n, 'needs', 'need')} attention`,
    imported: (created: number, total: number, fileName: string, attention: string) =>
      `Imported ${format.count(created)} of ${format.count(total)} from ${fileName}${attention}`,
    paused: ' (paused: waiting for the service)',
    importing: (
      fileName: string,
      created: number,
      total: number,
      waiting: number,
      attention: string,
      how: string,
      eta: string,
    ) =>
      `Importing ${fileName}: ${format.count(created)} of ${format.count(total)} on the service, ` +
      `${format.count(waiting)} waiting to be sent${attention}${how}${eta ? `, ${eta}` : ''}`,
  },
  export: {
    workerDidNotStart: 'the export worker did not start',
    failed: (reason: string) => `The export failed: ${reason}.`,
    failedWith: (error: string) => `The export failed: ${error}`,
  },
};
