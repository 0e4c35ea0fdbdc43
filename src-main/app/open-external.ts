// window.fieldmap.openExternal: opens a link in the user's browser, only for https URLs and only
// while the page has a live user click (the preload reports navigator.userActivation.isActive).
import { errorInfo, TaxonomyError } from '../../src-shared/errors';
import type { IpcHandlers } from '../ipc/handle';

/** A refusal the IPC router passes to the renderer as it is. */
export class ExternalLinkRefused extends TaxonomyError {
  override readonly name = 'ExternalLinkRefused';

  constructor(reason: string) {
    super(errorInfo('InvalidRequest', { message: `Refused: ${reason}` }), reason);
  }
}

/** The URL to open, or the reason it may not be opened. */
export function checkExternalUrl(
  raw: string,
): { ok: true; url: string } | { ok: false; reason: string } {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'not a valid URL' };
  }
  if (url.protocol !== 'https:')
    return { ok: false, reason: `only https links open outside the app (${url.protocol})` };
  if (url.username !== '' || url.password !== '')
    return { ok: false, reason: 'links with credentials do not open' };
  if (url.hostname === '') return { ok: false, reason: 'link has no host' };
  return { ok: true, url: url.href };
}

export function createOpenExternalHandler(
  openExternal: (url: string) => Promise<void>,
  log: (message: string) => void = (message) => console.warn(message),
): IpcHandlers['shell:open-external'] {
  return async ({ url, userActivated }) => {
    if (userActivated !== true) {
      log('[shell] refused openExternal without a user click');
      throw new ExternalLinkRefused('links open only from a click');
    }
    const checked = checkExternalUrl(url);
    if (!checked.ok) {
      log(`[shell] refused openExternal: ${checked.reason}`);
      throw new ExternalLinkRefused(checked.reason);
    }
    await openExternal(checked.url);
    return true;
  };
}
