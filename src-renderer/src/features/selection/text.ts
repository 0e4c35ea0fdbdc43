// The Selection panel's own text: the tools, the summary, the bulk actions, their confirmations
// and how far their changes have got to the service.
import { format } from '../../ui/format';

const customers = (n: number) => format.counted(n, 'customer', 'customers');
const changes = (n: number) => format.counted(n, 'change', 'changes');

export const text = {
  customers,
  panel: {
    title: 'Selection',
    close: 'Close selection',
    tools: 'Select on the map',
    lasso: 'Lasso',
    box: 'Box',
    lassoHint: 'Draw around the customers on the map: click, move, click again to finish.',
    boxHint: 'Click one corner on the map, then the opposite corner.',
    nothingYet:
      'Nothing selected yet. Draw a lasso or a box around customers on the map to select them.',
    noneInArea:
      'No customers in the drawn area, so there is nothing to change. Draw again around some pins (customers hidden by the search or a filter are not selected).',
    queuing: (label: string, queued: number, total: number) =>
      `${label}: queuing ${format.count(queued)} of ${total ? format.count(total) : '…'} changes`,
    exporting: (done: number, total: number) =>
      `Exporting ${format.count(done)} of ${format.count(total)}…`,
    cancelExport: 'Cancel export',
    list: 'Selected customers',
    noName: '(no name)',
  },
  run: {
    setColor: 'Set colour',
    addToGroup: 'Add to group',
    removeFromGroup: 'Remove from group',
    logVisit: 'Log a visit',
    delete: 'Delete',
    colorSet: (color: string, n: number) => `Colour ${color} queued for ${customers(n)}.`,
    grouped: (n: number, member: boolean, group: string, others: boolean) =>
      `${customers(n)} ${member ? 'added to' : 'removed from'} ${group}` +
      (others ? ` (the others ${member ? 'were in it' : 'were not in it'}).` : '.'),
    visited: (n: number) => `A visit logged to ${customers(n)}.`,
    deleted: (n: number) => `${customers(n)} deleted.`,
    planned: (n: number, inAll: number) =>
      `${customers(n)} in the plan (${format.count(inAll)} planned in all).`,
    stopped: (label: string, reason: string, queued: number) =>
      `${label} stopped: ${reason}` +
      (queued > 0 ? ` ${format.count(queued)} changes were queued before it stopped.` : ''),
  },
  actions: {
    label: 'Bulk actions',
    newColor: 'New colour',
    pickColor: 'Colour…',
    setColor: 'Set colour',
    noGroups: 'This account has no groups.',
    group: 'Group',
    pickGroup: 'Group…',
    addToGroup: 'Add to group',
    removeFromGroup: 'Remove from group',
    addToRoute: 'Add to route builder',
    addToPlan: 'Add to plan',
    visitNote: 'Visit note (optional)',
    logVisit: 'Log a visit to each',
    exportCsv: 'Export CSV',
    delete: (n: number) => `Delete ${customers(n)}…`,
  },
  deleteDialog: {
    title: (n: number) => `Delete ${customers(n)}?`,
    body: (n: number) =>
      `This deletes ${customers(n)} from the account for everyone, as soon as the app can reach the service. It cannot be undone.`,
    typeToConfirm: (n: number) => `Type ${n} to confirm`,
    cancel: 'Cancel',
    confirm: (n: number) => `Delete ${customers(n)}`,
  },
  summary: {
    label: 'Selection summary',
    selected: 'selected',
    dealAmounts: 'Deal amounts',
    noAmount: (n: number) => `${format.count(n)} with no amount`,
    unreadable: (n: number) => `${format.count(n)} with an amount that is not a number`,
    from: (n: number, left: string[]) =>
      `from ${customers(n)}${left.length ? ` (${left.join(', ')} left out)` : ''}`,
    overdue: 'Overdue for a visit',
    overdueWhy: (days: number, never: number) =>
      `reminder due or last visit over ${days} days ago` +
      (never > 0 ? `; ${format.count(never)} never visited` : ''),
    byColor: 'By colour',
    noColor: '(no colour)',
    byGroup: 'By group',
    noGroup: 'In no group',
  },
  drain: {
    offline: (waiting: number, total: number, needs: string) =>
      `${changes(waiting)} of ${format.count(total)} waiting: no connection. They are kept on this laptop and sent when it is back.${needs}`,
    /** `left`: the time left shown (null: none). */
    sending: (sent: number, total: number, left: string | null, needs: string) =>
      `Sending ${format.count(sent)} of ${changes(total)}${left === null ? '' : ` · about ${left} left`}.${needs}`,
    someReached: (sent: number, total: number, needs: string) =>
      `${format.count(sent)} of ${changes(total)} reached the service.${needs}`,
    allReached: (total: number, others: number) =>
      `All ${changes(total)} reached the service.` +
      (others > 0 ? ` ${changes(others)} of other work still waiting.` : ''),
    needAttention: (n: number) =>
      ` ${changes(n)} ${format.plural(n, 'needs', 'need')} attention (see Changes).`,
  },
};
