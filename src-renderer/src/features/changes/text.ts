// The Changes and Conflicts views' own text: queued changes, their states and actions, the
// created-customer check and the conflicts' choices.
import { format } from '../../ui/format';

export const text = {
  kinds: {
    createCustomer: 'New customer',
    updateCustomer: 'Edit customer',
    deleteCustomer: 'Delete customer',
    createRoute: 'New route',
    updateCustomFields: 'Custom fields',
  },
  states: {
    pending: 'Waiting to send',
    inFlight: 'Sending',
    done: 'Sent',
    needsAttention: 'Needs attention',
  },
  checking: (n: number) =>
    `Checking whether ${format.counted(n, 'new customer', 'new customers')} arrived on the service.`,
  empty: '(empty)',
  none: '(none)',
  summary: {
    changes: (fields: string) => `Changes ${fields}`,
    /** A changed field as the summary names it ("Changes colour, reminder"), not the API's key. */
    fields: {
      name: 'name',
      company: 'company',
      address: 'address',
      city: 'city',
      state: 'state',
      zip: 'postal code',
      country: 'country',
      latitude: 'position',
      longitude: 'position',
      email: 'email',
      phone: 'phone',
      color: 'colour',
      groups: 'groups',
      dealAmount: 'deal amount',
      numVisits: 'visits',
      lastVisit: 'last visit',
      remindAt: 'reminder',
      remindType: 'reminder type',
      notes: 'notes',
    } as Record<string, string>,
    stops: (n: number) => format.counted(n, 'stop', 'stops'),
  },
  changes: {
    title: 'Changes',
    hint: (queued: string, waiting: number, sending: number, attention: number) =>
      `${queued} not yet on the service: ${format.count(waiting)} waiting to be sent` +
      (sending > 0 ? ` (${format.count(sending)} being sent now)` : '') +
      (attention > 0 ? `, ${format.count(attention)} need your attention` : '') +
      '.',
    account: 'Account',
    empty: 'Everything is on the service. Nothing is waiting.',
    list: 'Queued changes',
    retry: 'Retry',
    edit: 'Edit…',
    discard: 'Discard…',
    discardTitle: 'Discard this change?',
    discardMessage: (kind: string, target: string) =>
      `“${kind}: ${target}” will never reach the service. This cannot be undone.`,
    discardConfirm: 'Discard change',
  },
  edit: {
    title: (kind: string) => `Edit: ${kind}`,
    cancel: 'Cancel',
    save: 'Save and send',
  },
  candidates: {
    question: 'Is this the customer you created?',
    none: 'No new record on the service looks like it.',
    thisOne: 'This is it',
    create: 'None of these: create it',
  },
  conflicts: {
    title: 'Conflicts',
    empty: 'No conflicts. When you and someone else change the same field, it shows here.',
    list: 'Conflicting fields',
    keepWhich: (field: string) => `Keep which value of ${field}?`,
    yours: 'Yours',
    theirs: 'The service’s',
    keptYours: 'You kept your value.',
    tookTheirs: 'You took the service’s value.',
    sentYours: 'Your value was sent; choose which one to keep.',
  },
};
