// Every test file is in exactly one lane (test/support/lanes.ts), and the unit lane refuses what
// belongs to the other two: a file in no lane would never run, one in two would run twice.
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lanesOf } from '../support/lanes';

const root = join(import.meta.dirname, '..', '..');

function testFiles(): string[] {
  const roots = readdirSync(root).filter((name) => name === 'test' || name.startsWith('src-'));
  return roots
    .flatMap((dir) =>
      readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' }).map((f) =>
        join(root, dir, f),
      ),
    )
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => relative(root, f).split('\\').join('/'));
}

describe('test lanes', () => {
  it('puts every test file in exactly one lane', () => {
    const files = testFiles();
    expect(files.length).toBeGreaterThan(100);
    const astray = files.filter((f) => lanesOf(f).length !== 1);
    expect(astray, 'name each *.unit.test.ts, *.integration.test.ts or *.e2e.test.ts').toEqual([]);
  });

  it('reads the lane from the name: none, one or two', () => {
    expect(lanesOf('test/sync/a.test.ts')).toEqual([]);
    expect(lanesOf('test/sync/a.unit.test.ts')).toEqual(['unit']);
    expect(lanesOf('test/e2e/unit.e2e.test.ts')).toEqual(['e2e']);
    expect(lanesOf('test/x/a.unit.e2e.test.ts')).toEqual(['unit', 'e2e']);
  });

  it('fails a unit test that reaches the keychain or Chromium, instead of skipping it', async () => {
    expect(process.env.FIELDMAP_TEST_LANE).toBe('unit');
    const keytar = (await import('keytar')).default;
    await expect(async () => keytar.findCredentials('fieldmap-lanes')).rejects.toThrow(
      /unit lane: this test uses the keychain/,
    );
    const { chromium } = await import('playwright-core');
    await expect(async () => chromium.launch()).rejects.toThrow(
      /unit lane: this test starts Chromium/,
    );
    // The app's own keychain store goes through the same guard.
    const { KeytarCredentialStore } = await import('../../src-main/core/service/credential-store');
    await expect(new KeytarCredentialStore({ service: 'fieldmap-lanes' }).list()).rejects.toThrow(
      /unit lane/,
    );
  });
});
