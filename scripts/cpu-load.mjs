// `node scripts/cpu-load.mjs N SECONDS`: N busy processes for at most SECONDS, so anyone can run
// the tests on a loaded machine, as a busy CI host or an old laptop would:
//   node scripts/cpu-load.mjs 2 1200 & npm run test:e2e
// Each process spins until the deadline or its parent goes; Ctrl-C or killing this process ends
// them all at once.
import { fork } from 'node:child_process';

if (process.argv[2] === '--spin') {
  const deadline = Number(process.argv[3]);
  const parent = Number(process.argv[4]);
  const alive = () => {
    try {
      process.kill(parent, 0);
      return true;
    } catch {
      return false;
    }
  };
  let x = 0;
  for (let i = 0; Date.now() < deadline; i++) {
    x = (x * 31 + i) % 1_000_003; // work the optimiser cannot drop
    if (i % 5_000_000 === 0 && !alive()) break;
  }
  process.exit(x === -1 ? 1 : 0);
}

const [n, seconds] = process.argv.slice(2, 4).map(Number);
if (!Number.isInteger(n) || n < 1 || !(seconds > 0)) {
  console.error('usage: node scripts/cpu-load.mjs N SECONDS   (N busy processes for SECONDS)');
  process.exit(2);
}
const deadline = Date.now() + seconds * 1000;
const children = Array.from({ length: n }, () =>
  fork(import.meta.filename, ['--spin', String(deadline), String(process.pid)], {
    stdio: 'ignore',
  }),
);
const stop = () => {
  for (const child of children) child.kill('SIGKILL');
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
console.error(`cpu-load: ${n} busy processes until ${new Date(deadline).toISOString()}`);
let left = n;
for (const child of children) child.on('exit', () => --left === 0 && process.exit(0));
