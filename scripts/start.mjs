// `npm start`: builds the app and opens it in Electron. Where Electron's binary is missing and
// cannot be fetched (its download host is unreachable), it says so in one line and opens the
// same app (the real main-process services, the built renderer) in Chromium through the browser
// runner instead. Arguments after `--` go to the app either way (e.g. `npm start -- --demo`);
// `--no-build` (first) skips the build when out/ is current.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const electronDir = join(root, 'node_modules', 'electron');
const noBuild = process.argv[2] === '--no-build';
const args = process.argv.slice(noBuild ? 3 : 2);
/** Long enough for a real download; an unreachable host fails well before it. */
const DOWNLOAD_TIMEOUT_MS = 5 * 60_000;

/** The Electron executable when it is on disk, where electron's own index.js looks for it. */
function electronBinary() {
  let name = 'electron';
  try {
    name = readFileSync(join(electronDir, 'path.txt'), 'utf8');
  } catch {
    if (!process.env.ELECTRON_OVERRIDE_DIST_PATH) return null;
  }
  const dist = process.env.ELECTRON_OVERRIDE_DIST_PATH ?? join(electronDir, 'dist');
  return existsSync(join(dist, name)) ? join(dist, name) : null;
}

/** Fetches the binary with electron's install script; null when done, else why not (one line). */
function fetchElectron() {
  const install = join(electronDir, 'install.js');
  if (!existsSync(install)) return 'the electron package is not installed (run npm install)';
  const result = spawnSync(process.execPath, [install], {
    cwd: root,
    encoding: 'utf8',
    timeout: DOWNLOAD_TIMEOUT_MS,
  });
  if (result.status === 0 && electronBinary()) return null;
  if (result.error) return result.error.message;
  const firstLine = `${result.stderr ?? ''}\n${result.stdout ?? ''}`
    .split('\n')
    .map((line) => line.trim())
    .find((line) => line.length > 0);
  return firstLine ?? `its install script exited with ${result.status}`;
}

/** Runs a command to its end with this terminal; exits with its status when it fails. */
function run(command, commandArgs) {
  const result = spawnSync(command, commandArgs, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

/** Hands this process over to a long-running command: its exit status becomes ours. */
function handOver(command, commandArgs) {
  const child = spawn(command, commandArgs, { cwd: root, stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

// keytar (the keychain) is built on first use; when it cannot be, ensure-keytar says why.
spawnSync(process.execPath, [join(root, 'scripts', 'ensure-keytar.mjs')], { stdio: 'inherit' });
const why = electronBinary() ? null : fetchElectron();
if (!noBuild) run('npx', ['electron-vite', 'build']);
if (why === null) {
  handOver('npx', ['electron-vite', 'preview', '--skipBuild', '--', ...args]);
} else {
  console.log(
    `npm start: Electron's binary could not be fetched (${why}); opening the same app in Chromium through the browser runner instead (npm run start:browser).`,
  );
  handOver('npx', ['tsx', join('scripts', 'browser-runner.ts'), ...args]);
}
