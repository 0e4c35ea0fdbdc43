// What the engine must remember across a crash to never duplicate a create: the ids that
// existed before a batch of creates was sent, which creates were sent with their outcome
// unknown, and resolutions found but not yet applied to the outbox. Written (fsync'd) before
// every POST batch and before every temp-id rewrite.
import path from 'node:path';
import * as v from 'valibot';
import { CustomerSchema, type Customer } from '../../../../src-shared/domain';
import { nodeDurableFs, type DurableFs } from '../../durable-fs';

const LedgerSchema = v.object({
  version: v.literal(1),
  knownCustomerIds: v.array(v.string()),
  knownRouteIds: v.array(v.string()),
  /** opIds of creates sent whose outcome is not settled yet. */
  sent: v.array(v.string()),
  /** opId -> server id, found but maybe not yet rewritten in the outbox. */
  resolved: v.record(v.string(), v.string()),
  /**
   * opId -> the op's sentAt whose send is proven to have created nothing (absent from a list
   * started after the grace, or refused). A create whose sentAt is not here is reconciled
   * before any resend, whatever put it back to pending. Optional: older files lack it.
   */
  cleared: v.optional(v.record(v.string(), v.number()), {}),
  /**
   * opId -> when the service answered the op's send (sentAt) with an error: it got the request
   * and finished with it, so a list started after `at` proves absence without the grace.
   */
  answered: v.optional(v.record(v.string(), v.object({ sentAt: v.number(), at: v.number() })), {}),
  /**
   * opId -> records that appeared after the send and resemble it without matching: the rep
   * decides. Such a create is never resent unless the rep says none of these is it.
   */
  ambiguous: v.optional(v.record(v.string(), v.array(CustomerSchema)), {}),
});
type LedgerData = v.InferOutput<typeof LedgerSchema>;

const empty = (): LedgerData => ({
  version: 1,
  knownCustomerIds: [],
  knownRouteIds: [],
  sent: [],
  resolved: {},
  cleared: {},
  answered: {},
  ambiguous: {},
});

export class SyncLedger {
  readonly #file: string;
  #data: LedgerData = empty();
  #knownCustomers = new Set<string>();
  #knownRoutes = new Set<string>();

  readonly #fs: DurableFs;

  private constructor(file: string, fs: DurableFs) {
    this.#file = file;
    this.#fs = fs;
  }

  static async open(stateDir: string, fs: DurableFs = nodeDurableFs): Promise<SyncLedger> {
    const ledger = new SyncLedger(path.join(stateDir, 'sync-ledger.json'), fs);
    const raw = await fs.readJsonStrict(ledger.#file);
    if (raw !== undefined) ledger.#set(v.parse(LedgerSchema, raw));
    return ledger;
  }

  /** Ids to exclude when matching: known before the sends, or already claimed. */
  excludedCustomerIds(): Set<string> {
    const out = new Set(this.#knownCustomers);
    for (const id of Object.values(this.#data.resolved)) out.add(id);
    return out;
  }

  excludedRouteIds(): Set<string> {
    const out = new Set(this.#knownRoutes);
    for (const id of Object.values(this.#data.resolved)) out.add(id);
    return out;
  }

  wasSent(opId: string): boolean {
    return this.#data.sent.includes(opId);
  }

  /** True when the op's last send (at `sentAt`) is known to have created nothing. */
  isCleared(opId: string, sentAt: number): boolean {
    return this.#data.cleared[opId] === sentAt;
  }

  /** When a list must have started to prove the send at `sentAt` absent, when it was answered. */
  answeredAt(opId: string, sentAt: number): number | undefined {
    const entry = this.#data.answered[opId];
    return entry?.sentAt === sentAt ? entry.at : undefined;
  }

  /** The records the rep is asked to choose from, when the create's outcome is ambiguous. */
  candidates(opId: string): Customer[] | undefined {
    return this.#data.ambiguous[opId];
  }

  resolvedId(opId: string): string | undefined {
    return this.#data.resolved[opId];
  }

  /** Before sending creates: the world as it is now, and which ops are about to go. */
  async beforeSend(
    known: { customerIds?: Iterable<string>; routeIds?: Iterable<string> },
    opIds: string[],
    liveOpIds: ReadonlySet<string>,
  ): Promise<void> {
    const next = this.#pruned(liveOpIds);
    if (known.customerIds) next.knownCustomerIds = [...known.customerIds];
    if (known.routeIds) next.knownRouteIds = [...known.routeIds];
    next.sent = [...new Set([...next.sent, ...opIds])];
    await this.#write(next);
  }

  /**
   * Records resolutions (before the outbox is rewritten) and settles sends: `absent` maps an
   * opId to the sentAt proven to have created nothing (null: never sent); `flagged` ops leave
   * the unsettled list without being cleared (the rep decides; a retry reconciles first).
   */
  async settle(
    resolved: Map<string, string>,
    absent: Map<string, number | null>,
    flagged: string[] = [],
    ambiguous: Map<string, Customer[]> = new Map(),
  ): Promise<void> {
    const next = {
      ...this.#data,
      resolved: { ...this.#data.resolved },
      cleared: { ...this.#data.cleared },
      ambiguous: { ...this.#data.ambiguous },
    };
    for (const [opId, id] of resolved) {
      next.resolved[opId] = id;
      delete next.ambiguous[opId];
    }
    for (const [opId, sentAt] of absent) {
      if (sentAt !== null) next.cleared[opId] = sentAt;
      delete next.ambiguous[opId];
    }
    for (const [opId, candidates] of ambiguous) next.ambiguous[opId] = candidates;
    const settled = new Set([
      ...resolved.keys(),
      ...absent.keys(),
      ...flagged,
      ...ambiguous.keys(),
    ]);
    next.sent = next.sent.filter((id) => !settled.has(id));
    await this.#write(next);
  }

  /** Records sends the service answered with an error (opId -> its sentAt), answered now. */
  async noteAnswered(sends: Map<string, number>, at: number): Promise<void> {
    if (sends.size === 0) return;
    const answered = { ...this.#data.answered };
    for (const [opId, sentAt] of sends) answered[opId] = { sentAt, at };
    await this.#write({ ...this.#data, answered });
  }

  /** Drops entries of ops no longer in the outbox. */
  #pruned(liveOpIds: ReadonlySet<string>): LedgerData {
    const resolved: Record<string, string> = {};
    const live = <T>(entries: Record<string, T>): Record<string, T> =>
      Object.fromEntries(Object.entries(entries).filter(([opId]) => liveOpIds.has(opId)));
    const applied: string[] = [];
    for (const [opId, id] of Object.entries(this.#data.resolved)) {
      if (liveOpIds.has(opId)) resolved[opId] = id;
      else applied.push(id);
    }
    // Applied resolutions stay excluded from matching until a fresh list replaces the known ids.
    return {
      ...this.#data,
      knownCustomerIds: [...this.#data.knownCustomerIds, ...applied],
      knownRouteIds: [...this.#data.knownRouteIds, ...applied],
      sent: this.#data.sent.filter((id) => liveOpIds.has(id)),
      resolved,
      cleared: live(this.#data.cleared),
      answered: live(this.#data.answered),
      ambiguous: live(this.#data.ambiguous),
    };
  }

  async #write(next: LedgerData): Promise<void> {
    await this.#fs.writeJson(this.#file, next);
    this.#set(next);
  }

  #set(data: LedgerData): void {
    this.#data = data;
    this.#knownCustomers = new Set(data.knownCustomerIds);
    this.#knownRoutes = new Set(data.knownRouteIds);
  }
}
