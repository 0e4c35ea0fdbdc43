// electron-builder.yml as electron-builder itself reads and validates it (its own loader and
// JSON schema, offline): fuses flipped, asar on, the targets of each platform. Packaging itself
// needs Electron's download host, so `npm run dist` is not run here.
import { join } from 'node:path';
import { getConfig, validateConfiguration } from 'app-builder-lib/out/util/config/config.js';
import { DebugLogger } from 'builder-util';
import { beforeAll, describe, expect, it } from 'vitest';

type Config = Awaited<ReturnType<typeof getConfig>>;
const root = join(import.meta.dirname, '..', '..');
let config: Config;

beforeAll(async () => {
  config = await getConfig(root, join(root, 'electron-builder.yml'), null);
});

const targetsOf = (platform: unknown): string[] => {
  const target = (platform as { target?: unknown } | null | undefined)?.target;
  const list = Array.isArray(target) ? target : [target];
  return list.map((t) => (typeof t === 'string' ? t : (t as { target: string }).target));
};

describe('electron-builder.yml', () => {
  it('passes electron-builder schema validation', async () => {
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined();
  });

  it('names the app and packs only the build output into an asar', () => {
    expect(config.appId).toBe('com.fieldmap.desktop');
    expect(config.productName).toBe('Fieldmap');
    expect(config.directories?.output).toBe('dist');
    expect(config.asar).toBe(true);
    expect(JSON.stringify(config.files)).toContain('out/**');
    expect(JSON.stringify(config.files)).not.toMatch(/src-/);
    expect(JSON.stringify(config.asarUnpack)).toContain('keytar');
  });

  it('flips the Electron fuses at package time', () => {
    expect(config.electronFuses).toEqual({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      onlyLoadAppFromAsar: true,
      enableCookieEncryption: true,
      enableEmbeddedAsarIntegrityValidation: true,
      grantFileProtocolExtraPrivileges: false,
    });
  });

  it('builds AppImage and deb for Linux, NSIS for Windows, dmg for macOS', () => {
    expect(targetsOf(config.linux)).toEqual(['AppImage', 'deb']);
    expect(config.linux?.category).toBe('Office');
    expect(config.linux?.maintainer).toBeTruthy();
    expect(targetsOf(config.win)).toEqual(['nsis']);
    expect(targetsOf(config.mac)).toEqual(['dmg']);
    expect(config.mac?.hardenedRuntime).toBe(true);
  });

  it('a misspelt fuse is rejected by the schema', async () => {
    const broken = {
      ...config,
      electronFuses: { ...config.electronFuses, runAsNod: false },
    } as Config;
    await expect(validateConfiguration(broken, new DebugLogger(false))).rejects.toThrow(
      /electronFuses/,
    );
  });
});
