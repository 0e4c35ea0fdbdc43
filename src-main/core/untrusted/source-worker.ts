// When main runs from its TypeScript sources (tests, benches, the browser runner), a worker's or
// a child's entry is a .ts file that Node cannot load by itself. Compiling it through tsx inside
// every new worker costs each start a second or more of compiling the same imports again, which
// a loaded machine multiplies. Instead the entry is bundled once per process by esbuild (a dev
// dependency, loaded only on this path: the app's build passes its own .js entries) into one
// plain .mjs file, named by its content, that every later start loads directly.
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

interface EsbuildApi {
  build(options: Record<string, unknown>): Promise<{ outputFiles: Array<{ text: string }> }>;
}

interface EsbuildPluginBuild {
  onLoad(
    filter: { filter: RegExp },
    load: (args: { path: string }) => Promise<{ contents: string; loader: 'ts' }>,
  ): void;
}

// Bundled, every module's import.meta would be the bundle's; a module that finds a file beside
// itself (a worker's entry, a data file) must still find it beside its source.
const ownImportMeta = {
  name: 'own-import-meta',
  setup(build: EsbuildPluginBuild) {
    build.onLoad({ filter: /\.ts$/ }, async ({ path }) => ({
      contents: (await readFile(path, 'utf8'))
        .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(path).href))
        .replaceAll('import.meta.dirname', JSON.stringify(dirname(path)))
        .replaceAll('import.meta.filename', JSON.stringify(path)),
      loader: 'ts',
    }));
  },
};

// A bundle of CommonJS packages in ESM output calls `require` for Node's built-ins.
const REQUIRE_SHIM =
  "import { createRequire as __fmCreateRequire } from 'node:module';\n" +
  'const require = __fmCreateRequire(import.meta.url);';

const bundles = new Map<string, Promise<string>>();

/** The runnable .mjs of a .ts entry (an absolute path), bundled once per process. */
export function sourceWorkerScript(entry: string): Promise<string> {
  let bundle = bundles.get(entry);
  if (!bundle) {
    bundle = bundleOnce(entry);
    bundles.set(entry, bundle);
    // A failed bundle (a syntax error being edited) is tried again on the next start.
    bundle.catch(() => bundles.delete(entry));
  }
  return bundle;
}

async function bundleOnce(entry: string): Promise<string> {
  const require = createRequire(import.meta.url);
  const esbuild = require('esbuild') as EsbuildApi;
  const result = await esbuild.build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    write: false,
    logLevel: 'silent',
    banner: { js: REQUIRE_SHIM },
    plugins: [ownImportMeta],
    // Native addons stay outside, resolved from the tree's node_modules, where the bundle lives.
    external: ['keytar', 'electron'],
  });
  const text = result.outputFiles[0]!.text;
  const nodeModules = dirname(dirname(require.resolve('esbuild/package.json')));
  const dir = join(nodeModules, '.cache', 'fieldmap-source-workers');
  const digest = createHash('sha256').update(text).digest('hex').slice(0, 20);
  const file = join(dir, `${basename(entry, '.ts')}-${digest}.mjs`);
  const present = await stat(file).then(
    (s) => s.size === Buffer.byteLength(text),
    () => false,
  );
  if (present) return file;
  await mkdir(dir, { recursive: true });
  // Several test processes may bundle the same entry at once: each writes its own file and
  // renames it over the one name, so a reader never sees half of one.
  const temp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  await writeFile(temp, text);
  await rename(temp, file);
  return file;
}
