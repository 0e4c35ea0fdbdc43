// `npm run service -- ...`: runs the reference service until SIGINT/SIGTERM, then saves and exits.
import { setFlagsFromString } from 'node:v8';
import { startService } from './index';
import { parseCliArgs, USAGE } from './cli-args';

// Generating 2 x 100k demo customers is allocation-heavy; a larger young generation cuts the
// garbage collector's share of start-up by about a fifth.
setFlagsFromString('--max-semi-space-size=64');

/** CPU time of this process so far: start-up cost independent of how busy the machine is. */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

async function main(): Promise<void> {
  let options;
  try {
    options = parseCliArgs(process.argv.slice(2));
  } catch (err) {
    console.error(`${(err as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (options.help) {
    console.log(USAGE);
    return;
  }
  const started = performance.now();
  const service = await startService(options);
  const names = (options.accounts ?? []).map((a) => a.username).join(', ');
  console.log(
    `Customer Mapping Service listening on ${service.url} ` +
      `(accounts: ${names}; ready in ${Math.round(performance.now() - started)} ms, ` +
      `process CPU ${Math.round(cpuMs())} ms)`,
  );
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    service.stop().then(
      () => {
        console.log(
          `${signal}: stopped${options.dataFile ? `, data saved to ${options.dataFile}` : ''}`,
        );
        process.exit(0);
      },
      (err: unknown) => {
        console.error(err);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

void main();
