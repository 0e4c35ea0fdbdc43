// Visits' own text: the detail panel's visit actions, the log-visit dialog and the visit filter.
import { format } from '../../ui/format';

export const text = {
  actions: {
    log: 'Log visit',
    never: 'Never visited',
    today: 'Visited today',
    daysSince: (days: number) => `${format.count(days)} d since visit`,
    due: (kind: string) => `${kind || 'Reminder'} due`,
  },
  dialog: {
    title: (name: string) => `Log a visit to ${name || '(no name)'}`,
    number: (n: number) => `Visit number ${format.count(n)}, dated now.`,
    note: "Note (added to the customer's notes)",
    remind: 'Set a reminder',
    when: 'When',
    kind: 'Kind',
    needDateTime: 'Pick a date and time.',
    cancel: 'Cancel',
    log: 'Log visit',
  },
  filter: {
    all: 'Any visit date',
    due: 'Reminder due',
    week: 'Visited within 7 days',
    month: 'Visited 8-30 days ago',
    quarter: 'Visited 31-90 days ago',
    older: 'Visited over 90 days ago',
    never: 'Never visited',
  },
};
