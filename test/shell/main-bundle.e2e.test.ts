// The built main process (out/main) is what ships: the demo may start the reference service in
// it, but none of the service's test machinery (seeded fault injection, request gates) may come
// along. The bundle names each module it inlines ("// src-service/demo.ts"), which is what this
// reads; the demo's own module must be there, so the check is reading the real bundle.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const outMain = join(root, 'out', 'main');

beforeAll(() => {
  // `npm test` builds first; a lone run builds when the bundle is missing.
  if (!existsSync(join(outMain, 'index.js')))
    execFileSync('npx', ['electron-vite', 'build'], { cwd: root, stdio: 'ignore' });
});

const bundled = () =>
  readdirSync(outMain)
    .filter((f) => f.endsWith('.js'))
    .map((f) => ({ file: f, code: readFileSync(join(outMain, f), 'utf8') }));

/** The modules under src-service a bundle file inlines. */
const serviceModules = (code: string) =>
  [...code.matchAll(/^\/\/ (src-service\/[\w/-]+\.ts)$/gm)].map((m) => m[1]!);

describe('the shipped main bundle', () => {
  it('runs the demo service without its test machinery', () => {
    const files = bundled();
    const modules = files.flatMap(({ code }) => serviceModules(code));
    for (const testOnly of ['faults', 'gates', 'test-hooks', 'cli', 'cli-args'])
      expect(modules).not.toContain(`src-service/${testOnly}.ts`);
    expect(modules).toContain('src-service/demo.ts');
    for (const { file, code } of files) {
      expect(code, file).not.toMatch(/Injected (server )?fault|class (RequestGates|FaultInjector)/);
    }
  });
});
