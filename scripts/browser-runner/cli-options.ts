// Command line of `npm run start:browser`: the runner's own flags plus the app's options.
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

export interface RunnerCliOptions {
  headless: boolean;
  screenshot: string | null;
  dataDir: string;
  demo: boolean;
  serviceUrl: string | null;
  offline: boolean;
  locale: string | null;
  limiterRate: number | null;
  syncPeriodMs: number | null;
  help: boolean;
}

export const USAGE = `Usage: npm run start:browser -- [options]

Runs Fieldmap's main-process services in Node and the built renderer in Chromium.

Runner:
  --headless             no window
  --screenshot <file>    wait until the app is drawn, write a PNG, exit
App:
  --demo                 open the demo account (a local reference service) if none is open
  --data-dir <dir>       where accounts, outboxes and the browser profile live
                         (default ~/.local/share/fieldmap-browser-runner)
  --service-url <url>    service address offered on the sign-in form
  --offline              start with the network cut
  --locale <tag>         the renderer's locale, e.g. en-US (default: the environment's)
  --limiter-rate <n>     requests per second per account (default 3)
  --sync-period-ms <n>   how often to sync while reachable
  --help

Main's network reads HTTPS_PROXY, HTTP_PROXY, NO_PROXY (lowercase too) and
FIELDMAP_EXTRA_CA_CERTS (a PEM file of extra CAs to trust) from the environment.`;

// `npm run` starts scripts in the package root; paths on the command line mean the caller's directory.
const callerDir = (): string => process.env.INIT_CWD ?? process.cwd();

export function parseRunnerArgs(argv: readonly string[]): RunnerCliOptions {
  const options: RunnerCliOptions = {
    headless: false,
    screenshot: null,
    dataDir: join(
      process.env.XDG_DATA_HOME ?? join(homedir(), '.local/share'),
      'fieldmap-browser-runner',
    ),
    demo: false,
    serviceUrl: null,
    offline: false,
    locale: null,
    limiterRate: null,
    syncPeriodMs: null,
    help: false,
  };
  const args = [...argv];
  const value = (flag: string): string => {
    const next = args.shift();
    if (next === undefined || next.startsWith('--'))
      throw new Error(`${flag} needs a value\n\n${USAGE}`);
    return next;
  };
  const positive = (flag: string): number => {
    const n = Number(value(flag));
    if (!Number.isFinite(n) || n <= 0) throw new Error(`${flag} must be a positive number`);
    return n;
  };
  while (args.length > 0) {
    const arg = args.shift()!;
    // `--flag=value` is accepted too.
    const eq = arg.indexOf('=');
    if (arg.startsWith('--') && eq > 0) {
      args.unshift(arg.slice(0, eq), arg.slice(eq + 1));
      continue;
    }
    switch (arg) {
      case '--headless':
        options.headless = true;
        break;
      case '--screenshot':
        options.screenshot = resolve(callerDir(), value(arg));
        break;
      case '--demo':
        options.demo = true;
        break;
      case '--data-dir':
        options.dataDir = resolve(callerDir(), value(arg));
        break;
      case '--service-url':
        options.serviceUrl = value(arg);
        break;
      case '--offline':
        options.offline = true;
        break;
      case '--locale':
        options.locale = value(arg);
        break;
      case '--limiter-rate':
        options.limiterRate = positive(arg);
        break;
      case '--sync-period-ms':
        options.syncPeriodMs = positive(arg);
        break;
      case '--help':
      case '-h':
        options.help = true;
        break;
      default:
        throw new Error(`unknown option ${arg}\n\n${USAGE}`);
    }
  }
  return options;
}
