// `bash scripts/docs-notification.sh`: docs/screenshot-notification.png, a reminder as the
// desktop shows it. Run inside a virtual X display with a notification daemon (the .sh starts
// Xvfb, a D-Bus session and dunst): the browser runner's window, headed, gets a reminder from
// main's schedule through the page's Notification API, which Chromium hands to the desktop's
// notification service (org.freedesktop.Notifications). Windows' toast and macOS' banner look
// different; the words are the same.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { launchApp, startTestService } from '../test/support/app';
import { until } from '../test/support/until';
import { MemoryCredentialStore } from './browser-runner/credentials';
import { DOCS } from './docs-screenshots';

const USER = 'rep';

async function main(): Promise<void> {
  const service = await startTestService({ customers: 0, seed: 28 });
  const soon = Date.now() + 40_000;
  service.store.createCustomerDirect(USER, {
    name: 'Müller Bäckerei',
    address: 'Hauptstraße 12',
    city: 'Köln',
    latitude: 50.9375,
    longitude: 6.9603,
    remindAt: Math.floor(soon / 1000),
    remindType: 'Call about the spring order',
  });
  service.store.createCustomerDirect(USER, {
    name: 'Søndergaard Kaffe',
    address: 'Domkloster 4',
    city: 'Köln',
    latitude: 50.9413,
    longitude: 6.9583,
  });
  // The D-Bus session is the notification daemon's; no keyring is unlocked in it.
  const app = await launchApp({
    serviceUrl: service.url,
    headed: true,
    credentialStore: new MemoryCredentialStore(),
  });
  try {
    // Signed in through main, not the form: Chromium would offer to save the password on top.
    await app.call('login', {
      baseUrl: service.url,
      username: service.account.username,
      password: service.account.password,
    });
    await app.page.waitForSelector('[aria-label="Customers"][data-rows="2"]');
    await until(() => app.notifications.length > 0, 'the reminder shown', 120_000);
    await app.page.click('button[title="Reminders due today, and those overdue"]');
    // The daemon draws it on its next frame.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const file = join(DOCS, 'screenshot-notification.png');
    // The page and the notification below the browser's own bars (the runner's flags banner).
    execFileSync('/usr/bin/import', [
      '-window',
      'root',
      '-crop',
      '1290x740+0+158',
      '+repage',
      '-strip',
      file,
    ]);
    console.log(`wrote ${file}`);
  } finally {
    await app.close();
    await service.stop();
  }
}

await main();
