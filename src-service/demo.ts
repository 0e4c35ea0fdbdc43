// The reference service as the product's demo runs it: no fault injection, no request gates, so
// none of that test machinery is bundled into the shipped main process.
import { startServiceWith } from './start';
import type { RunningService, ServiceOptions } from './types';

export type { RunningService, ServiceOptions } from './types';

/** Starts the demo's service; `options.faults` is refused (the demo has no faults to inject). */
export function startDemoService(options: Omit<ServiceOptions, 'faults'>): Promise<RunningService> {
  return startServiceWith(options, null);
}
