// Which resolved addresses main's map network refuses (remote-policy.ts refusedResolution, used
// by the lookup of local-address-guard.ts): a name that does not look local but resolves to this
// computer or the LAN, in any of the forms a resolver answers, unless the rep confirmed it.
import { describe, expect, it } from 'vitest';
import { refusedResolution } from '../../src-main/core/basemap/remote-policy';

describe('a name resolved for the map', () => {
  it('is refused when it resolves to loopback, private, link-local or unspecified', () => {
    for (const address of [
      '127.0.0.1',
      '127.1.2.3',
      '10.0.0.5',
      '172.16.4.4',
      '192.168.1.20',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      '::',
      '::ffff:127.0.0.1',
      '::ffff:192.168.0.1',
      'fd12:3456::1',
      'fe80::1',
    ]) {
      expect(refusedResolution('tiles.example.com', address, []), address).toBe(true);
    }
  });

  it('is let through when it resolves to a public address', () => {
    for (const address of ['93.184.216.34', '8.8.8.8', '2606:2800:220:1::1', '::ffff:8.8.8.8']) {
      expect(refusedResolution('tiles.example.com', address, []), address).toBe(false);
    }
  });

  it('is let through when the rep confirmed its origin, or the URL policy already judged it', () => {
    const origins = ['https://tiles.example.com:8443'];
    expect(refusedResolution('tiles.example.com', '192.168.1.20', origins)).toBe(false);
    expect(refusedResolution('other.example.com', '192.168.1.20', origins)).toBe(true);
    // localhost and *.local are local by name: refused unless confirmed, before any lookup.
    expect(refusedResolution('localhost', '127.0.0.1', [])).toBe(false);
    expect(refusedResolution('printer.local', '192.168.1.9', [])).toBe(false);
  });
});
