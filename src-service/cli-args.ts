// Parses the command line of `npm run service` into ServiceOptions.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { DEFAULT_CUSTOMERS } from './store';
import type { AccountSpec, Faults, ServiceOptions, Variants } from './types';
import { checkVariants } from './variants';

export const USAGE = `Usage: npm run service -- [options]
  --port <n>              port (0 = a free port; default 8787)
  --host <ip>             address to listen on (default 127.0.0.1)
  --customers <n>         generated customers per account (default ${DEFAULT_CUSTOMERS})
  --seed <n>              seed of the demo data (default 1)
  --accounts <u:p,...>    accounts (default demo:demo,demo2:demo2)
  --rate <n>              requests per second per account (default 3; 0 = no limit)
  --allow <ip|cidr,...>   allowed clients (default loopback only)
  --tls                   HTTPS with a generated self-signed certificate
  --cert <file> --key <file>  HTTPS with the given PEM certificate and key
  --data <file>           load and save a JSON snapshot (atomic writes)
Variants:
  --create-message with-id|without-id|short-with-id|id-field   --put patch|replace
  --rate-limited retry-after|retry-after-date|no-retry-after|503   --forbidden-body json|html
  --timezone-type 1|2|3   --unmapped null|zero   --deal-amount number|string
  --store as-sent|normalising
  --timezone default|+02:00|EST|Europe/Oslo|...   --timestamp-fraction none|micro
  --written-form parsed|kept
  --php <habit>=<choice>,...   PHP habits (src-service/types.ts PhpHabits), e.g.
                          contentType=php-default,bodyPrefix=bom,numbers=strings,arrays=php-objects
Faults (seeded):
  --faults latency=<ms>,jitter=<ms>,error=<0..1>,reset-before=<0..1>,reset-after=<0..1>,error-after-commit=<0..1>,seed=<n>`;

const FAULT_KEYS: Record<string, keyof Omit<Faults, 'redirectTo'>> = {
  latency: 'latencyMs',
  jitter: 'jitterMs',
  error: 'errorRate',
  'reset-before': 'resetBeforeRate',
  'reset-after': 'resetAfterRate',
  'error-after-commit': 'errorAfterCommitRate',
  seed: 'seed',
};

function number(flag: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n) || n < 0)
    throw new Error(`--${flag} needs a number >= 0`);
  return n;
}

export function parseFaults(text: string): Partial<Faults> {
  const faults: Partial<Faults> = {};
  for (const part of text.split(',').filter(Boolean)) {
    const [name = '', value] = part.split('=');
    const key = FAULT_KEYS[name.trim()];
    if (!key) throw new Error(`--faults: unknown fault "${name}"`);
    faults[key] = number(`faults ${name}`, value) as number;
  }
  return faults;
}

function parseAccounts(text: string, customers: number | undefined): AccountSpec[] {
  return text.split(',').map((pair) => {
    const colon = pair.indexOf(':');
    if (colon <= 0) throw new Error(`--accounts: "${pair}" is not user:password`);
    return { username: pair.slice(0, colon), password: pair.slice(colon + 1), customers };
  });
}

/** `--php bodyPrefix=bom,numbers=strings`: PHP habits by name (checked with the variants). */
function parsePhpHabits(text: string | undefined): Record<string, string> {
  if (text === undefined) return {};
  return Object.fromEntries(
    text.split(',').map((pair) => {
      const [name, value] = pair.split('=').map((s) => s.trim());
      if (!name || !value) throw new Error(`--php: "${pair}" is not name=value`);
      return [name, value];
    }),
  );
}

/** ServiceOptions from argv (without node and script); throws with a message on bad input. */
export function parseCliArgs(argv: string[]): ServiceOptions & { help?: boolean } {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      help: { type: 'boolean' },
      port: { type: 'string' },
      host: { type: 'string' },
      customers: { type: 'string' },
      seed: { type: 'string' },
      accounts: { type: 'string' },
      rate: { type: 'string' },
      allow: { type: 'string' },
      tls: { type: 'boolean' },
      cert: { type: 'string' },
      key: { type: 'string' },
      data: { type: 'string' },
      faults: { type: 'string' },
      'create-message': { type: 'string' },
      put: { type: 'string' },
      'rate-limited': { type: 'string' },
      'forbidden-body': { type: 'string' },
      'timezone-type': { type: 'string' },
      unmapped: { type: 'string' },
      'deal-amount': { type: 'string' },
      store: { type: 'string' },
      timezone: { type: 'string' },
      'timestamp-fraction': { type: 'string' },
      'written-form': { type: 'string' },
      php: { type: 'string' },
    },
  });
  if (values.help) return { help: true };
  const customers = number('customers', values.customers);
  const accounts = parseAccounts(values.accounts ?? 'demo:demo,demo2:demo2', customers);
  const variants = checkVariants(
    Object.fromEntries(
      Object.entries({
        createMessage: values['create-message'],
        put: values.put,
        rateLimited: values['rate-limited'],
        forbiddenBody: values['forbidden-body'],
        timezoneType:
          values['timezone-type'] === undefined ? undefined : Number(values['timezone-type']),
        unmapped: values.unmapped,
        dealAmount: values['deal-amount'],
        store: values.store,
        timezone: values.timezone,
        timestampFraction: values['timestamp-fraction'],
        writtenForm: values['written-form'],
        ...parsePhpHabits(values.php),
      }).filter(([, v]) => v !== undefined),
    ) as Partial<Variants>,
  );
  if ((values.cert === undefined) !== (values.key === undefined)) {
    throw new Error('--cert and --key go together');
  }
  const tls =
    values.cert !== undefined && values.key !== undefined
      ? { cert: readFileSync(values.cert, 'utf8'), key: readFileSync(values.key, 'utf8') }
      : values.tls === true;
  return {
    port: number('port', values.port) ?? 8787,
    host: values.host ?? '127.0.0.1',
    seed: number('seed', values.seed),
    accounts,
    rate: number('rate', values.rate),
    allow: values.allow
      ?.split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    tls,
    dataFile: values.data,
    variants,
    faults: values.faults === undefined ? undefined : parseFaults(values.faults),
  };
}
