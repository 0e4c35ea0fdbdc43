// The customer editor's own text: its fields, its checks and its dialogs; and the account's
// custom-fields checks.
import { format } from '../../ui/format';

export const text = {
  editor: {
    newTitle: 'New customer',
    editTitle: (name: string) => `Edit ${name || 'customer'}`,
    close: 'Close editor',
    fields: {
      name: 'Name (required)',
      company: 'Company',
      email: 'Email',
      phone: 'Phone',
      address: 'Street address',
      city: 'City',
      state: 'State / region',
      zip: 'Postal code',
      country: 'Country',
      latitude: 'Latitude',
      longitude: 'Longitude',
      dealAmount: 'Deal amount',
      numVisits: 'Visits',
      lastVisit: 'Last visit',
      remindAt: 'Reminder',
      remindType: 'Reminder type',
      notes: 'Notes',
    },
    address: 'Address',
    position: 'Position',
    picking: 'Click the map to place the pin… (Esc to stop)',
    pick: 'Pick on the map',
    color: 'Color',
    pinColor: 'Pin color',
    groups: 'Groups',
    noGroups: 'This account has no groups.',
    sales: 'Sales',
    customFields: 'Custom fields',
    /** A custom field the account has not named (1-based, as the web account counts them). */
    unnamedField: (n: number) => `Custom field ${format.count(n)}`,
    fixFields: 'Fix the fields marked above, then save again.',
    saveHint: 'Save (Ctrl+S)',
    create: 'Create customer',
    save: 'Save changes',
    cancel: 'Cancel',
    delete: 'Delete…',
    deleteTitle: 'Delete this customer?',
    deleteMessage: (name: string) =>
      `“${name}” will be deleted from the service when you are next in sync.`,
    deleteConfirm: 'Delete customer',
  },
  form: {
    nameRequired: 'A name is required.',
    email: 'Enter an email like name@example.com.',
    latitude: {
      missing: 'Enter a latitude too, or clear both.',
      notNumber: 'Latitude must be a number.',
      range: (limit: number) =>
        `Latitude must be between -${format.count(limit)} and ${format.count(limit)}.`,
    },
    longitude: {
      missing: 'Enter a longitude too, or clear both.',
      notNumber: 'Longitude must be a number.',
      range: (limit: number) =>
        `Longitude must be between -${format.count(limit)} and ${format.count(limit)}.`,
    },
    dealAmount: 'Deal amount must be a number, like 1200.50.',
    numVisits: 'Visits must be a whole number (0 or more).',
    date: 'Enter a valid date.',
    dateTime: 'Enter a valid date and time.',
    color: 'Pick one of the account’s colors.',
  },
  customFields: {
    needName: 'Enter a name.',
    nameTooLong: 'Use at most 200 characters.',
    nameTwice: 'This name is used twice.',
    needWholeNumber: 'Enter a whole number.',
  },
};
