// The rep's answer to "Is this the customer you created?" for a create whose outcome stayed
// ambiguous: one of the candidates (its id is adopted, nothing is sent), or none of them (the
// only way such a create is ever sent again).
import type { Customer } from '../../../../src-shared/domain';
import { errorInfo } from '../../../../src-shared/errors';
import type { Op } from '../../../../src-shared/outbox-types';
import { ServiceError } from '../../service/errors';
import type { EmitEvent, OutboxPort } from '../../ports';
import { applyResolution } from './creates';
import type { SyncLedger } from './ledger';

export interface DecideDeps {
  accountKey: string;
  outbox: OutboxPort;
  ledger: SyncLedger;
  emit: EmitEvent;
}

function refuse(message: string): ServiceError {
  return new ServiceError(errorInfo('InvalidRequest', { message, detail: message }));
}

/** The ambiguous create `opId`, waiting for the rep, with its candidates. */
function waitingCreate(deps: DecideDeps, opId: string): { op: Op; candidates: Customer[] } {
  const op = deps.outbox.get(opId);
  const candidates = deps.ledger.candidates(opId);
  if (op?.kind !== 'createCustomer' || op.state !== 'needs-attention' || !candidates) {
    throw refuse('This change is not waiting for you to choose its customer.');
  }
  return { op, candidates };
}

/** The records the rep may choose from; null when the op is not an ambiguous create. */
export function createCandidates(deps: DecideDeps, opId: string): Customer[] | null {
  const op = deps.outbox.get(opId);
  if (op?.kind !== 'createCustomer' || op.state !== 'needs-attention') return null;
  return deps.ledger.candidates(opId) ?? null;
}

/**
 * Applies the rep's choice: `customerId` adopts that candidate (recorded in the ledger first,
 * then the temp id is rewritten everywhere); null clears the create to be sent again.
 */
export async function decideCreate(
  deps: DecideDeps,
  opId: string,
  customerId: string | null,
): Promise<void> {
  const { op, candidates } = waitingCreate(deps, opId);
  if (op.kind !== 'createCustomer') return;
  if (customerId === null) {
    // Cleared: this send is recorded as having created nothing the rep wants.
    await deps.ledger.settle(new Map(), new Map([[opId, op.sentAt ?? null]]));
    await deps.outbox.retry(opId);
    return;
  }
  if (!candidates.some((c) => c.id === customerId)) {
    throw refuse('That customer is not one of the records offered for this change.');
  }
  const taken = deps.outbox
    .list()
    .some((o) => o.opId !== opId && deps.ledger.resolvedId(o.opId) === customerId);
  if (taken) throw refuse('That customer is already the record of another new customer.');
  await deps.ledger.settle(new Map([[opId, customerId]]), new Map());
  await deps.outbox.retry(opId);
  await applyResolution(deps, op, customerId);
}
