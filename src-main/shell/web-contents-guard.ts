// Rules every web contents of the app gets as soon as it exists: it stays on the app's own
// pages, opens no windows, and attaches no <webview>.
import { isAppPageUrl } from './app-protocol';
import type { PreventableEvent, ShellWebContents } from './shell-deps';

export function hardenWebContents(
  contents: ShellWebContents,
  log: (message: string) => void,
): void {
  // App pages only: the tile proxy and region files are data, never a page to show.
  const stayInApp = (event: PreventableEvent, url: string) => {
    if (isAppPageUrl(url)) return;
    event.preventDefault();
    log(`[shell] blocked navigation to ${url.slice(0, 200)}`);
  };
  contents.on('will-navigate', stayInApp);
  contents.on('will-redirect', stayInApp);
  // External links go through window.fieldmap.openExternal, which checks the URL and the click.
  contents.setWindowOpenHandler(({ url }) => {
    log(`[shell] denied window.open of ${url.slice(0, 200)}`);
    return { action: 'deny' };
  });
  contents.on('will-attach-webview', (event) => {
    event.preventDefault();
    log('[shell] blocked a <webview>');
  });
}
