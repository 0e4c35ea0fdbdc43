// The import boundaries of eslint.config.js bite: real ESLint over text placed (virtually) in
// each folder. lintText with a filePath applies that folder's rules without writing a file.
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({ cwd: root });
});

async function ruleIds(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(root, file) });
  return (result?.messages ?? []).map((m) => m.ruleId ?? `fatal: ${m.message}`);
}

describe('import boundaries', () => {
  it('src-shared imports no Node.js module, electron, DOM-only module or other process', async () => {
    const imports = [
      "import { readFileSync } from 'node:fs';",
      "import { join } from 'path';",
      "import { readFile } from 'fs/promises';",
      "import { app } from 'electron';",
      "import Dexie from 'dexie';",
      "import maplibregl from 'maplibre-gl';",
      "import type { ServiceApi } from '../src-main/core/ports';",
      "import App from '../src-renderer/src/app/App.svelte';",
      "import { startService } from '../src-service/index';",
    ];
    for (const line of imports) {
      expect(
        await ruleIds('src-shared/boundary-probe.ts', `${line}\nexport const x = 1;\n`),
        line,
      ).toContain('no-restricted-imports');
    }
  });

  it('src-shared uses no DOM or Node.js globals', async () => {
    for (const code of [
      'export const w = window.innerWidth;',
      'export const d = document.title;',
      'export const p = process.env;',
    ]) {
      expect(await ruleIds('src-shared/boundary-probe.ts', code), code).toContain(
        'no-restricted-globals',
      );
    }
  });

  it('src-shared may import valibot and its own modules', async () => {
    const code =
      "import * as v from 'valibot';\nimport { CustomerSchema } from './domain';\nexport const s = v.array(CustomerSchema);\n";
    expect(await ruleIds('src-shared/boundary-probe.ts', code)).toEqual([]);
  });

  it('src-renderer never imports main, the service, electron or Node.js', async () => {
    for (const line of [
      "import { app } from 'electron';",
      "import { createIpcRouter } from '../../src-main/ipc/handle';",
      "import { startService } from '../../src-service/index';",
      "import { readFileSync } from 'node:fs';",
    ]) {
      expect(
        await ruleIds('src-renderer/src/boundary-probe.ts', `${line}\nexport const x = 1;\n`),
        line,
      ).toContain('no-restricted-imports');
    }
    const allowed =
      "import { matchesSearch } from '../../src-shared/search';\nexport const f = matchesSearch;\n";
    expect(await ruleIds('src-renderer/src/boundary-probe.ts', allowed)).not.toContain(
      'no-restricted-imports',
    );
  });

  it('src-main never imports the renderer; src-service never imports main, renderer or electron', async () => {
    const renderer =
      "import App from '../../src-renderer/src/app/App.svelte';\nexport const x = App;\n";
    expect(await ruleIds('src-main/core/boundary-probe.ts', renderer)).toContain(
      'no-restricted-imports',
    );
    const nodeInMain = "import { readFileSync } from 'node:fs';\nexport const r = readFileSync;\n";
    expect(await ruleIds('src-main/core/boundary-probe.ts', nodeInMain)).toEqual([]);
    for (const line of [
      "import { app } from 'electron';",
      "import type { ServiceApi } from '../src-main/core/ports';",
      "import App from '../src-renderer/src/app/App.svelte';",
    ]) {
      expect(
        await ruleIds('src-service/boundary-probe.ts', `${line}\nexport const x = 1;\n`),
        line,
      ).toContain('no-restricted-imports');
    }
  });
  it('src-main/core imports neither electron nor the shell nor app/', async () => {
    for (const [file, line] of [
      ['src-main/core/boundary-probe.ts', "import { app } from 'electron';"],
      ['src-main/core/sync/boundary-probe.ts', "import { BrowserWindow } from 'electron/main';"],
      ['src-main/core/boundary-probe.ts', "import { startShell } from '../shell/start-shell';"],
      [
        'src-main/core/sync/boundary-probe.ts',
        "import type { ShellDeps } from '../../shell/shell-deps';",
      ],
      ['src-main/core/boundary-probe.ts', "import { createHandlers } from '../app/handlers';"],
      [
        'src-main/core/outbox/boundary-probe.ts',
        "import type { AppError } from '../../app/app-error';",
      ],
    ] as const) {
      expect(await ruleIds(file, `${line}\nexport const x = 1;\n`), `${file}: ${line}`).toContain(
        'no-restricted-imports',
      );
    }
    const allowed =
      "import { systemClock } from '../ports';\nimport { readFileSync } from 'node:fs';\nexport const c = [systemClock, readFileSync];\n";
    expect(await ruleIds('src-main/core/sync/boundary-probe.ts', allowed)).toEqual([]);
  });

  it('src-main/app imports neither electron nor the shell; it may use core/', async () => {
    for (const line of [
      "import { shell } from 'electron';",
      "import { startShell } from '../shell/start-shell';",
      "import { buildFieldmapApi } from '../../src-preload/bridge';",
    ]) {
      expect(
        await ruleIds('src-main/app/boundary-probe.ts', `${line}\nexport const x = 1;\n`),
        line,
      ).toContain('no-restricted-imports');
    }
    const allowed = "import { Outbox } from '../core/outbox/outbox';\nexport const o = Outbox;\n";
    expect(await ruleIds('src-main/app/boundary-probe.ts', allowed)).toEqual([]);
  });

  it('src-main/shell may import electron, app/ and core/', async () => {
    const code =
      "import { app } from 'electron';\nimport { createMainServices } from '../app/main-services';\nexport const x = [app, createMainServices];\n";
    expect(await ruleIds('src-main/shell/boundary-probe.ts', code)).toEqual([]);
  });

  it('src-preload imports electron and src-shared only: no Node.js, main, renderer or service', async () => {
    for (const line of [
      "import { readFileSync } from 'node:fs';",
      "import { createIpcRouter } from '../src-main/ipc/handle';",
      "import App from '../src-renderer/src/app/App.svelte';",
      "import { startService } from '../src-service/index';",
      "import Dexie from 'dexie';",
    ]) {
      expect(
        await ruleIds('src-preload/boundary-probe.ts', `${line}\nexport const x = 1;\n`),
        line,
      ).toContain('no-restricted-imports');
    }
    const allowed =
      "import { contextBridge } from 'electron';\nimport { invokeChannels } from '../src-shared/ipc-contract';\nexport const x = [contextBridge, invokeChannels];\n";
    expect(await ruleIds('src-preload/boundary-probe.ts', allowed)).toEqual([]);
  });
});
