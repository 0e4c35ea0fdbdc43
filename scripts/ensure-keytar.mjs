// Makes sure keytar, the one native addon, loads: builds it with `npm rebuild keytar` when it
// does not (the project's .npmrc keeps `npm install` from running its build script). keytar is
// an N-API addon, so the one build serves Node (tests, browser runner) and Electron alike.
// Exit 0 when it loads (now or after the build); 1 with the reason otherwise.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

function loads() {
  // A fresh process each time: a failed require() is cached in this one.
  const probe = spawnSync(process.execPath, ['-e', "require('keytar')"], { cwd: root });
  return probe.status === 0;
}

if (!loads()) {
  console.log('keytar: building its native addon (npm rebuild keytar)');
  const build = spawnSync('npm', ['rebuild', 'keytar', '--ignore-scripts=false'], {
    cwd: root,
    encoding: 'utf8',
  });
  if (build.status !== 0 || !loads()) {
    const output = `${build.stdout ?? ''}${build.stderr ?? ''}`.trim().split('\n').slice(-5);
    console.error(
      `keytar: the build failed; it needs libsecret-1-dev, python3, make and g++ ` +
        `(sudo bash scripts/install-system-deps.sh).\n${output.join('\n')}`,
    );
    process.exit(1);
  }
}
