// The basemap's IPC handlers: offline regions (list, add by path, pick with main's file dialog,
// remove) and the basemap settings (online style URL, tile cache capacity). Every change is
// announced with `basemap:changed`, whoever made it (the panel or the File menu).
import { stat } from 'node:fs/promises';
import { basename, extname, isAbsolute } from 'node:path';
import type { BasemapSettingsView } from '../../src-shared/basemap';
import type { BasemapService } from '../core/basemap/service';
import { RegionError } from '../core/basemap/offline-regions';
import { checkSourceUrl, RegionDownloadError } from '../core/basemap/region-source';
import { isLocalNetworkHost } from '../core/basemap/remote-policy';
import type { EmitEvent } from '../core/ports';
import type { IpcHandlers } from '../ipc/handle';
import { adminSourceView } from './admin-defaults';
import { AppError } from './app-error';
import {
  createRegionDownloadHandlers,
  type RegionDownloadChannel,
} from './region-download-handlers';

/**
 * Main's "open file" dialog: the chosen path, or null. Electron's dialog.showOpenDialog; the
 * browser runner asks on its terminal. A path never comes from the page.
 */
export type PickFile = (options: {
  title: string;
  filters: Array<{ name: string; extensions: string[] }>;
}) => Promise<string | null>;

/**
 * Main's own question to the rep (Electron's message box; the browser runner asks on its
 * terminal): may Fieldmap reach this address on this computer or the local network? True only
 * when the rep said yes. The page cannot answer it, so a page cannot point main at the LAN.
 */
export type ConfirmLocalAddress = (request: {
  url: string;
  what: 'online style' | 'map source';
}) => Promise<boolean>;

export interface BasemapHandlerDeps {
  basemap: BasemapService;
  emit: EmitEvent;
  /** Present in Electron: then a region's path comes only from this dialog, never from the renderer. */
  pickFile?: PickFile;
  /** Without it, no address on this computer or the LAN can be set. */
  confirmLocalAddress?: ConfirmLocalAddress;
}

export type BasemapChannel =
  'regions:list' | 'regions:pick' | 'regions:remove' | 'basemap:settings' | 'basemap:set-settings';

export type BasemapHandlers = Pick<IpcHandlers, BasemapChannel | RegionDownloadChannel>;

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * The online style URL to store, or why it is refused: https, or http on this computer only
 * (a local tile server), and no credentials in the URL.
 */
export function checkOnlineStyleUrl(
  raw: string,
): { ok: true; url: string } | { ok: false; reason: string } {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return { ok: false, reason: 'The online style URL is not a valid URL.' };
  }
  const loopbackHttp = url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname);
  if (url.protocol !== 'https:' && !loopbackHttp) {
    return {
      ok: false,
      reason: `The online style URL must start with https:// (${url.protocol}// is not secure).`,
    };
  }
  if (url.username !== '' || url.password !== '')
    return { ok: false, reason: 'The online style URL must not contain a user name or password.' };
  return { ok: true, url: url.href };
}

const invalid = (message: string, field?: string): AppError =>
  new AppError('InvalidRequest', field ? { message, field } : { message });

/** Checks that `path` names a readable .pmtiles file; the archive's header is checked on add. */
async function checkRegionPath(path: string): Promise<void> {
  if (!isAbsolute(path))
    throw invalid(
      'Give the full path of the region file (for example /home/me/region.pmtiles).',
      'path',
    );
  if (extname(path).toLowerCase() !== '.pmtiles')
    throw invalid('Only .pmtiles files can be added as offline regions.', 'path');
  const info = await stat(path).catch(() => null);
  if (!info) throw invalid('There is no file at that path.', 'path');
  if (!info.isFile()) throw invalid('That path is not a file.', 'path');
}

export function createBasemapHandlers({
  basemap,
  emit,
  pickFile,
  confirmLocalAddress,
}: BasemapHandlerDeps): BasemapHandlers {
  /** True for a local address, asking the rep first unless confirmed; adds it to `confirmed`. */
  const confirmLocal = async (
    confirmed: string[],
    url: string,
    what: 'online style' | 'map source',
    field: string,
  ): Promise<boolean> => {
    const { hostname, origin } = new URL(url);
    if (!isLocalNetworkHost(hostname)) return false;
    if (!basemap.isConfirmed(origin) && !confirmed.includes(origin)) {
      const yes = (await confirmLocalAddress?.({ url, what })) ?? false;
      if (!yes)
        throw invalid(
          `The ${what} ${origin} is on this computer or the local network, and Fieldmap reaches such an address only once you confirm it.`,
          field,
        );
    }
    confirmed.push(origin);
    return true;
  };
  const settingsView = (): BasemapSettingsView => {
    const settings = basemap.settings();
    const usage = basemap.tiles.usage();
    return {
      onlineStyleUrl: settings.onlineStyleUrl,
      defaultOnlineStyleUrl: basemap.defaultOnlineStyle(),
      cacheCapBytes: settings.tileCacheBytes,
      cacheUsedBytes: usage.usedBytes,
      cacheEntries: usage.entries,
      filePicker: pickFile !== undefined,
      regionSourceUrl: settings.regionSourceUrl,
      adminRegionSource: adminSourceView(basemap.adminRegionSource()),
      dailyBuilds: basemap.dailyBuilds() !== null,
    };
  };
  const changed = () =>
    emit('basemap:changed', { regions: basemap.regions.list(), settings: settingsView() });
  basemap.onDownloadChange((status) => {
    emit('regions:progress', status);
    if (status.state === 'done') changed();
  });

  const addFromPath = async (path: string) => {
    await checkRegionPath(path);
    let region;
    try {
      region = await basemap.regions.add(path, basename(path, extname(path)));
    } catch (error) {
      if (error instanceof RegionError)
        throw invalid(`That file is not a usable offline region: ${error.message}.`, 'path');
      if (error instanceof Error && 'code' in error)
        throw invalid('The region file could not be read.', 'path');
      throw error;
    }
    changed();
    return region;
  };

  return {
    ...createRegionDownloadHandlers(basemap),
    'regions:list': async () => basemap.regions.list(),
    'regions:pick': async () => {
      if (!pickFile) {
        throw invalid('Adding a region needs a file dialog, and this window has none.');
      }
      const path = await pickFile({
        title: 'Add offline region',
        filters: [{ name: 'PMTiles archives', extensions: ['pmtiles'] }],
      });
      return path === null ? null : addFromPath(path);
    },
    'regions:remove': async ({ id }) => {
      const removed = await basemap.regions.remove(id);
      if (!removed) throw invalid('There is no offline region with that id.', 'id');
      changed();
      return true;
    },
    'basemap:settings': async () => settingsView(),
    'basemap:set-settings': async ({ onlineStyleUrl, cacheCapBytes, regionSourceUrl }) => {
      const confirmed: string[] = [];
      let url: string | null | undefined = onlineStyleUrl;
      if (typeof url === 'string') {
        if (url.trim() === '') url = null;
        else {
          const checked = checkOnlineStyleUrl(url);
          if (!checked.ok) throw invalid(checked.reason, 'onlineStyleUrl');
          url = checked.url;
          await confirmLocal(confirmed, url, 'online style', 'onlineStyleUrl');
        }
      }
      let source: string | null | undefined = regionSourceUrl;
      if (typeof source === 'string') {
        if (source.trim() === '') source = null;
        else {
          try {
            source = checkSourceUrl(source);
            const local = await confirmLocal(confirmed, source, 'map source', 'regionSourceUrl');
            await basemap.downloads.checkSource(source, { confirmedLocal: local });
          } catch (error) {
            if (error instanceof RegionDownloadError)
              throw invalid(error.message, 'regionSourceUrl');
            throw error;
          }
        }
      }
      const keep = basemap.settings().confirmedOrigins;
      await basemap.setSettings({
        confirmedOrigins: [...keep, ...confirmed],
        ...(source !== undefined ? { regionSourceUrl: source } : {}),
        ...(url !== undefined ? { onlineStyleUrl: url } : {}),
        ...(cacheCapBytes !== undefined ? { tileCacheBytes: cacheCapBytes } : {}),
      });
      changed();
      return settingsView();
    },
  };
}
