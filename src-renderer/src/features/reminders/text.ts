// The reminders' words.
import { format } from '../../ui/format';
import type { SnoozeChoice } from './due-today';

export const text = {
  button: (due: number) => (due > 0 ? `Due today (${format.count(due)})` : 'Due today'),
  buttonTitle: 'Reminders due today, and those overdue',
  panelTitle: 'Due today',
  closePanel: 'Close Due today',
  empty: 'Nothing due today.',
  summary: (due: number, overdue: number) =>
    overdue > 0
      ? `${format.counted(due, 'reminder', 'reminders')}, ${format.count(overdue)} overdue`
      : format.counted(due, 'reminder', 'reminders'),
  kind: (type: string) => type || 'Reminder',
  overdueSince: (at: number, today: boolean) =>
    `Overdue since ${today ? format.time(at) : format.dateTime(at)}`,
  dueAt: (at: number, today: boolean) =>
    today ? `Due at ${format.time(at)}` : `Due ${format.dateTime(at)}`,
  unnamed: 'Unnamed customer',
  open: 'Open',
  openNamed: (name: string) => `Open ${name}`,
  snooze: 'Snooze',
  snoozeNamed: (name: string) => `Snooze the reminder of ${name}`,
  snoozeChoice: { hour: '1 hour', tomorrow: 'Tomorrow 09:00', week: 'Next week' } satisfies Record<
    SnoozeChoice,
    string
  >,
  done: 'Done',
  doneNamed: (name: string) => `Mark the reminder of ${name} done`,
  failed: (message: string) => `The reminder was not changed: ${message}`,
};
