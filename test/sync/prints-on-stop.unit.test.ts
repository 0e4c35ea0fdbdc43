// The prints of the last pull the cache was sent are on disk when main stops, whatever sync
// follows it: a restart that diffs against older prints sends a delta the cache refuses (its base
// is not the pull the cache holds), and the page then gets the whole account again.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DurableFs } from '../../src-main/core/durable-fs';
import type { ServiceApi } from '../../src-main/core/ports';
import { SnapshotKeeper, type Pulled } from '../../src-main/core/sync/pull';
import { ServiceError } from '../../src-main/core/service/errors';
import { errorInfo } from '../../src-shared/errors';
import { customerRecord } from '../support/customer-record';
import { Harness } from '../support/main';
import { until } from '../support/until';

let h: Harness | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await h?.dispose();
  h = undefined;
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

/** The client of the harness's open engine, with a hook after the pull's last GET. */
function hooked(
  client: () => ServiceApi,
  hooks: { afterPull?: () => Promise<void>; down: boolean },
): ServiceApi {
  return new Proxy({} as ServiceApi, {
    get(_, key) {
      const target = client();
      const value = Reflect.get(target, key) as unknown;
      if (typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        if (hooks.down) throw new ServiceError(errorInfo('Offline'));
        const answer = (await (value as (...a: unknown[]) => Promise<unknown>).apply(
          target,
          args,
        )) as unknown;
        if (key === 'listTerritories' && hooks.afterPull) {
          const run = hooks.afterPull;
          hooks.afterPull = undefined;
          await run();
        }
        return answer;
      };
    },
  });
}

const printsFile = (dir: string) => path.join(dir, 'state', 'last-pull-prints.json');
const savedPulledAt = async (dir: string) =>
  (JSON.parse(await readFile(printsFile(dir), 'utf8')) as { pulledAt: number }).pulledAt;

describe("the last pull's prints", () => {
  it('are saved for a pull followed at once by a sync that fails before its own save', async () => {
    const hooks: { afterPull?: () => Promise<void>; down: boolean } = { down: false };
    let harness!: Harness;
    h = harness = await Harness.start({
      customers: 30,
      engine: { api: hooked(() => harness.client, hooks) },
    });
    harness.engine.start();
    await until(() => harness.of('data:snapshot').length > 0, 'the first snapshot');
    const first = harness.of('data:snapshot')[0]!.pulledAt;
    await until(
      async () => (await savedPulledAt(harness.dir).catch(() => 0)) === first,
      "the first pull's prints saved",
    );

    const [a, b] = harness.serverCustomers();
    await harness.outbox.enqueue({
      kind: 'updateCustomer',
      target: a!.id,
      payload: { notes: 'first edit' },
      base: harness.base(a!.id),
    });
    // While this sync pulls, the rep edits again: a second sync follows at once, and the network
    // goes before it can send anything.
    hooks.afterPull = async () => {
      await harness.outbox.enqueue({
        kind: 'updateCustomer',
        target: b!.id,
        payload: { notes: 'second edit' },
        base: harness.base(b!.id),
      });
      harness.engine.nudge('change');
      hooks.down = true;
    };
    await harness.engine.syncNow();
    await until(() => harness.engine.state.kind === 'offline', 'the second sync failed');
    const sent = harness.of('data:delta').at(-1)!;
    expect(sent.base).toBe(first);
    await harness.close();
    expect(await savedPulledAt(harness.dir)).toBe(sent.pulledAt);

    // The restart's first sync: a delta over the pull the cache holds.
    hooks.down = false;
    harness.events = [];
    await harness.open();
    await harness.engine.syncNow();
    expect(harness.of('data:snapshot')).toEqual([]);
    expect(harness.of('data:delta')[0]?.base).toBe(sent.pulledAt);
  });
});

/**
 * The real file system, its first JSON write held until `release`: then it lands after every
 * write begun meanwhile (an older pull's write slower than a newer one's).
 */
class HeldFirstWrite extends DurableFs {
  #held: Promise<void> | null;
  #others: Promise<void>[] = [];
  release!: () => void;
  readonly started: Promise<void>;
  #started!: () => void;

  constructor() {
    super();
    this.#held = new Promise((resolve) => (this.release = resolve));
    this.started = new Promise((resolve) => (this.#started = resolve));
  }

  override async writeJson(file: string, value: unknown): Promise<void> {
    const held = this.#held;
    this.#held = null;
    if (!held) {
      const write = super.writeJson(file, value);
      this.#others.push(write.catch(() => undefined));
      return write;
    }
    this.#started();
    await held;
    await Promise.all(this.#others);
    return super.writeJson(file, value);
  }
}

function pulled(names: string[]): Pulled {
  return {
    user: { username: 'rep', name: 'Rep', phone: '', numPins: names.length } as Pulled['user'],
    customers: names.map((name, i) => customerRecord({ id: `c${i}`, name })),
    routes: [],
    territories: [],
  };
}

describe("the prints' writes", () => {
  it("land in the order taken: an older pull's slow write never lands over a newer one's", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'fieldmap-prints-'));
    dirs.push(dir);
    const fs = new HeldFirstWrite();
    const file = path.join(dir, 'last-pull-prints.json');
    const keeper = new SnapshotKeeper('acct', { fs, file });
    await keeper.take(pulled(['a', 'b']), 1);
    const older = keeper.save();
    await fs.started;
    await keeper.take(pulled(['a', 'B']), 2);
    const newer = keeper.save();
    fs.release();
    await Promise.all([older, newer]);
    const saved = JSON.parse(await readFile(file, 'utf8')) as { pulledAt: number };
    expect(saved.pulledAt).toBe(2);
  });
});
