// Demo mode: the reference service on loopback with one generated account, its data persisted
// under the data dir so the rep's changes survive a restart. The demo password is random,
// generated once and kept in the keychain; the service's port is remembered so the demo
// account's URL (and so its account key and outbox) stays the same across runs.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import * as v from 'valibot';
import { startDemoService } from '../../src-service/demo';
import type { CredentialStore } from '../core/ports';
import { nodeDurableFs, type DurableFs } from '../core/durable-fs';
import type { DemoLauncher } from './session-manager';

/** The keychain slot of the demo password: stable even if the demo's port has to change. */
export const DEMO_KEYCHAIN_URL = 'fieldmap-demo:';
export const DEMO_USERNAME = 'demo';

const DemoStateSchema = v.object({
  port: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(65_535)),
});

export interface DemoLauncherOptions {
  dataDir: string;
  credentialStore: CredentialStore;
  /** Requests per second, as the real service (3). */
  rate?: number;
  customers?: number;
  fs?: DurableFs;
}

export function createDemoLauncher(options: DemoLauncherOptions): DemoLauncher {
  const stateFile = join(options.dataDir, 'demo.json');
  const serviceFile = join(options.dataDir, 'demo-service.json');
  const fs = options.fs ?? nodeDurableFs;
  let running: Promise<{ url: string; stop: () => Promise<void> }> | null = null;

  async function password(): Promise<string> {
    const saved = await options.credentialStore.load(DEMO_KEYCHAIN_URL, DEMO_USERNAME);
    if (saved !== null) return saved;
    // The service's data file keeps the password it was created with; without that password
    // (keychain reset) its data cannot be signed into again, so the demo starts afresh.
    await fs.remove(serviceFile);
    const fresh = randomBytes(18).toString('base64url');
    await options.credentialStore.save(DEMO_KEYCHAIN_URL, DEMO_USERNAME, fresh);
    return fresh;
  }

  async function launch(pw: string): Promise<{ url: string; stop: () => Promise<void> }> {
    const raw = await fs.readJson(stateFile);
    const saved = v.safeParse(DemoStateSchema, raw);
    const base = {
      rate: options.rate ?? 3,
      dataFile: serviceFile,
      accounts: [
        { username: DEMO_USERNAME, password: pw, customers: options.customers ?? 500, seed: 1 },
      ],
    };
    let service;
    try {
      service = await startDemoService({ ...base, port: saved.success ? saved.output.port : 0 });
    } catch (error) {
      if (!saved.success || (error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
      // The remembered port is taken: the demo starts on a new one (a new demo account URL).
      service = await startDemoService({ ...base, port: 0 });
    }
    await fs.writeJson(stateFile, { port: service.port });
    return { url: service.url, stop: () => service.stop() };
  }

  return {
    async start() {
      const pw = await password();
      running ??= launch(pw).catch((error: unknown) => {
        running = null;
        throw error;
      });
      const { url } = await running;
      return { url, username: DEMO_USERNAME, password: pw };
    },
    async stop() {
      const current = running;
      running = null;
      if (current) await (await current).stop();
    },
  };
}
