// How the sync engine reads a failure (src-main/core/sync/errors.ts): every error of the taxonomy
// keeps its kind and message, whichever layer threw it (service client, outbox, app), so an
// outbox refusal during a sync shows as what it is, not as "Internal".
import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../../src-main/app/app-error';
import { serviceError } from '../../src-main/core/service/errors';
import { infoOf, kindOf, messageOf, stopsPush } from '../../src-main/core/sync/errors';
import { scratch } from '../outbox/fixtures';

let box: Awaited<ReturnType<typeof scratch>> | null = null;
afterEach(async () => {
  await box?.cleanup();
  box = null;
});

describe('the sync engine reads every taxonomy error by its kind', () => {
  it('an outbox refusal keeps its kind and message', async () => {
    box = await scratch();
    const outbox = await box.open();
    const refusal: unknown = await outbox.retry('no-such-op').catch((e: unknown) => e);
    expect(kindOf(refusal)).toBe('InvalidRequest');
    expect(infoOf(refusal)).toMatchObject({
      kind: 'InvalidRequest',
      message: expect.stringContaining('no-such-op'),
    });
    expect(stopsPush(refusal)).toBe(false);
    expect(messageOf(refusal)).toContain('no-such-op');
  });

  it('a closed outbox is Internal with its own message, not the generic one', async () => {
    box = await scratch();
    const outbox = await box.open();
    await outbox.close();
    const failure: unknown = await outbox.retry('x').catch((e: unknown) => e);
    expect(kindOf(failure)).toBe('Internal');
    expect(infoOf(failure).message).toBe('The outbox is closed.');
    expect(messageOf(failure)).toBe('The outbox is closed.');
  });

  it("the app's NotSignedIn stops the push like the client's", () => {
    expect(kindOf(new AppError('NotSignedIn'))).toBe('NotSignedIn');
    expect(stopsPush(new AppError('NotSignedIn'))).toBe(true);
    expect(stopsPush(serviceError('NotSignedIn'))).toBe(true);
  });

  it('anything else is Internal, with its message as detail', () => {
    expect(kindOf(new Error('boom'))).toBe('Internal');
    expect(infoOf(new Error('boom'))).toMatchObject({ kind: 'Internal', detail: 'boom' });
    expect(messageOf(new Error('boom'))).toBe('boom');
  });
});
