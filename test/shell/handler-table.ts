// A complete IPC handler table for tests: every channel refuses loudly unless overridden.
import { invokeChannels, type InvokeChannel } from '../../src-shared/ipc-contract';
import type { IpcHandlers } from '../../src-main/ipc/handle';

export function handlerTable(overrides: Partial<IpcHandlers> = {}): IpcHandlers {
  const table: Record<string, unknown> = {};
  for (const channel of Object.keys(invokeChannels) as InvokeChannel[]) {
    table[channel] = async () => {
      throw new Error(`${channel} is not used in this test`);
    };
  }
  // Complete by construction: one entry per channel of the contract.
  return { ...(table as IpcHandlers), ...overrides };
}
