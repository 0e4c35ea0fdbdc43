// `npm run start:browser`: Fieldmap without Electron. See scripts/browser-runner/launch.ts.
import { mkdir } from 'node:fs/promises';
import { createInterface } from 'node:readline/promises';
import type { ConfirmLocalAddress, PickFile } from '../src-main/app/basemap-handlers';
import { parseRunnerArgs, USAGE } from './browser-runner/cli-options';
import { pickCredentialStore } from './browser-runner/credentials';
import { launchApp } from './browser-runner/launch';
import { writeScreenshot } from './browser-runner/screenshot';

/** One question on the runner's terminal; the answer trimmed. */
async function askTerminal(question: string): Promise<string> {
  const prompt = createInterface({ input: process.stdin, output: process.stdout });
  try {
    return (await prompt.question(question)).trim();
  } finally {
    prompt.close();
  }
}

/** Main's "allow a local address?" box, asked on the runner's terminal (the page cannot answer). */
const askOnTerminal: ConfirmLocalAddress = async ({ url, what }) => {
  if (!process.stdin.isTTY) return false;
  const answer = await askTerminal(
    `Allow Fieldmap to use ${new URL(url).origin} (on this computer or your local network) as the ${what}? [y/N] `,
  );
  return /^y(es)?$/i.test(answer);
};

/** Main's "open file" dialog, as a path typed on the runner's terminal; empty cancels. */
const pickOnTerminal: PickFile = async ({ title, filters }) => {
  const kinds = filters.flatMap((f) => f.extensions.map((e) => `.${e}`)).join(', ');
  const answer = await askTerminal(
    `${title}: full path of the file (${kinds}), or Enter to cancel: `,
  );
  return answer === '' ? null : answer;
};

async function main(): Promise<void> {
  const options = parseRunnerArgs(process.argv.slice(2));
  if (options.help) {
    console.log(USAGE);
    return;
  }
  await mkdir(options.dataDir, { recursive: true, mode: 0o700 });
  const { store, warning } = await pickCredentialStore();
  if (warning) console.warn(warning);

  const app = await launchApp({
    dataDir: options.dataDir,
    headless: options.headless || options.screenshot !== null,
    credentialStore: store,
    demo: options.demo,
    offline: options.offline,
    ...(options.serviceUrl ? { serviceUrl: options.serviceUrl } : {}),
    ...(options.locale !== null ? { locale: options.locale } : {}),
    ...(options.limiterRate !== null ? { limiterRate: options.limiterRate } : {}),
    ...(options.syncPeriodMs !== null ? { syncPeriodMs: options.syncPeriodMs } : {}),
    confirmLocalAddress: askOnTerminal,
    // No terminal to ask on (started by another program): no "Add region…" either.
    ...(process.stdin.isTTY ? { pickFile: pickOnTerminal } : {}),
  });

  if (options.screenshot) {
    try {
      const how = await writeScreenshot(app.page, options.screenshot);
      console.log(`screenshot written to ${options.screenshot} (drawn: ${how})`);
    } finally {
      await app.close();
    }
    return;
  }

  console.log(
    `Fieldmap is running (data in ${options.dataDir}). Close the window or press Ctrl+C to quit.`,
  );
  await new Promise<void>((resolve) => {
    app.context.on('close', () => resolve());
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
  await app.close().catch(() => undefined);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(
      `start:browser failed: ${error instanceof Error ? error.message : String(error)}`,
    );
    process.exit(1);
  },
);
