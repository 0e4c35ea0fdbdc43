// electron-builder.yml as electron-builder itself reads and validates it (its own loader and
// JSON schema, offline): fuses flipped, asar on, the targets of each platform. Packaging itself
// needs Electron's download host, so `npm run dist` is not run here.
import { join } from 'node:path';
import { getConfig, validateConfiguration } from 'app-builder-lib/out/util/config/config.js';
import { expandMacro } from 'app-builder-lib/out/util/macroExpander.js';
import { DebugLogger } from 'builder-util';
import { beforeAll, describe, expect, it } from 'vitest';

type Config = Awaited<ReturnType<typeof getConfig>>;
/** The parts of AppInfo a publish URL's macros may read (none but env.* here). */
const appInfo = {} as Parameters<typeof expandMacro>[2];
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

  it('builds AppImage and deb for Linux, NSIS for Windows, dmg and zip for macOS', () => {
    expect(targetsOf(config.linux)).toEqual(['AppImage', 'deb']);
    expect(config.linux?.category).toBe('Office');
    expect(config.linux?.maintainer).toBeTruthy();
    expect(targetsOf(config.win)).toEqual(['nsis']);
    // The zip is what electron-updater installs a macOS update from.
    expect(targetsOf(config.mac)).toEqual(['dmg', 'zip']);
    expect(config.mac?.hardenedRuntime).toBe(true);
  });

  it('publishes to a generic feed whose URL comes from the environment', () => {
    expect(config.publish).toEqual({ provider: 'generic', url: '${env.FIELDMAP_UPDATE_URL}' });
    const url = (config.publish as { url: string }).url;
    const saved = process.env.FIELDMAP_UPDATE_URL;
    try {
      process.env.FIELDMAP_UPDATE_URL = 'https://updates.example.com/fieldmap';
      expect(expandMacro(url, null, appInfo)).toBe('https://updates.example.com/fieldmap');
      delete process.env.FIELDMAP_UPDATE_URL;
      expect(() => expandMacro(url, null, appInfo)).toThrow(/FIELDMAP_UPDATE_URL/);
    } finally {
      if (saved === undefined) delete process.env.FIELDMAP_UPDATE_URL;
      else process.env.FIELDMAP_UPDATE_URL = saved;
    }
  });

  it('signs and notarises from the environment only: no certificate or password in the file', () => {
    expect(config.mac?.notarize).toBe(true);
    const text = JSON.stringify(config);
    for (const key of ['cscLink', 'cscKeyPassword', 'certificateFile', 'certificatePassword'])
      expect(text).not.toContain(key);
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
