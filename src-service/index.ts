// startService: the reference Customer Mapping Service for tests and the CLI, with its test hooks
// (seeded fault injection, request gates). The product's demo uses ./demo.ts instead.
import { startServiceWith } from './start';
import { TestHooks } from './test-hooks';
import type { RunningService, ServiceOptions } from './types';

export * from './types';
export { ServiceStore } from './store';
export { DEFAULT_ACCOUNTS, DEFAULT_CUSTOMERS } from './store';
export { DEFAULT_RATE } from './start';

/** Starts the service; resolves once it is listening. */
export function startService(options: ServiceOptions = {}): Promise<RunningService> {
  return startServiceWith(options, new TestHooks(options.faults));
}
