// fieldmap://customer/<id> read strictly: any program or web page can open such a link.
import { describe, expect, it } from 'vitest';
import { customerLink, customerOfLink } from '../../src-shared/customer-link';

describe('customer links', () => {
  it('round-trips a service id and a temp id', () => {
    for (const id of ['Ab3dE5gH9k', '12345', 'tmp_0f8fad5b-d9cb-469f-a165-70867728950e']) {
      expect(customerOfLink(customerLink(id))).toBe(id);
    }
    expect(customerOfLink('FIELDMAP://customer/Ab3dE5gH9k/')).toBe('Ab3dE5gH9k');
  });

  it('names no customer for anything else', () => {
    for (const url of [
      'fieldmap://customer/',
      'fieldmap://customer/a/b',
      'fieldmap://customer/..%2F..%2Fetc',
      'fieldmap://customer/a?delete=1',
      'fieldmap://customer/%E0%A4%A',
      'fieldmap://customer/<script>',
      'fieldmap://route/Ab3dE5gH9k',
      'https://customer/Ab3dE5gH9k',
      `fieldmap://customer/${'a'.repeat(400)}`,
    ]) {
      expect(customerOfLink(url), url).toBeNull();
    }
  });
});

describe('open requests', () => {
  it('keeps the last request until the page takes it, once, and pings the page', async () => {
    const { OpenRequests } = await import('../../src-main/app/open-requests');
    const pings: string[] = [];
    const opens = new OpenRequests(((event: string) => pings.push(event)) as never);
    expect(opens.take()).toBeNull();
    opens.request({ accountKey: 'a', customerId: 'c1' });
    opens.request({ accountKey: null, customerId: 'c2' });
    expect(pings).toEqual(['customer:open', 'customer:open']);
    expect(opens.take()).toEqual({ accountKey: null, customerId: 'c2' });
    expect(opens.take()).toBeNull();
  });
});
