// IPC handlers of region downloads (issue 14): estimate an area, download it from the source set
// in the basemap settings, list, pause, resume and cancel. Progress goes out as
// `regions:progress`; a finished download also announces the new region list (basemap:changed).
import { DEFAULT_DOWNLOAD_MAX_ZOOM } from '../../src-shared/basemap';
import type { BasemapService } from '../core/basemap/service';
import { RegionDownloadError } from '../core/basemap/region-source';
import type { IpcHandlers } from '../ipc/handle';
import { adminSourceView } from './admin-defaults';
import { AppError } from './app-error';

export type RegionDownloadChannel =
  | 'regions:estimate'
  | 'regions:download'
  | 'regions:downloads'
  | 'regions:pause'
  | 'regions:resume'
  | 'regions:cancel';

/**
 * A refusal the rep can act on, with the downloader's own message; a polygon that is not an area
 * (crosses itself, no surface...) is the plan worker's refusal, so its check never holds main.
 */
async function explained<T>(task: () => Promise<T>): Promise<T> {
  try {
    return await task();
  } catch (error) {
    if (error instanceof RegionDownloadError)
      throw new AppError('InvalidRequest', {
        message: error.message,
        ...(error.code === 'bad-area' ? { field: 'area' } : {}),
      });
    throw error;
  }
}

/**
 * The rep's source, else the administrator's default, else the newest public daily build;
 * refused with the reason when none (the admin's is refused or off, the build list unreadable).
 */
async function sourceOf(basemap: BasemapService): Promise<string> {
  const url = basemap.regionSource();
  if (url) return url;
  const admin = adminSourceView(basemap.adminRegionSource());
  if (admin && 'problem' in admin)
    throw new AppError('InvalidRequest', { message: admin.problem, field: 'regionSourceUrl' });
  if (admin && 'off' in admin)
    throw new AppError('InvalidRequest', {
      message:
        'Your administrator turned the default map source off: save a map source here to download areas.',
      field: 'regionSourceUrl',
    });
  if (basemap.dailyBuilds()) return basemap.newestDailyBuild();
  throw new AppError('InvalidRequest', {
    message: 'Set the map source (a PMTiles archive URL) in Offline maps first.',
    field: 'regionSourceUrl',
  });
}

export function createRegionDownloadHandlers(
  basemap: BasemapService,
): Pick<IpcHandlers, RegionDownloadChannel> {
  const { downloads } = basemap;
  return {
    'regions:estimate': ({ area, maxZoom }) =>
      explained(async () =>
        downloads.estimate(await sourceOf(basemap), area, maxZoom ?? DEFAULT_DOWNLOAD_MAX_ZOOM),
      ),
    'regions:download': ({ area, maxZoom, name, replaces }) =>
      explained(async () => {
        if (replaces && !basemap.regions.list().some((r) => r.id === replaces))
          throw new AppError('InvalidRequest', {
            message: 'There is no offline region with that id.',
            field: 'replaces',
          });
        return downloads.start({
          url: await sourceOf(basemap),
          area,
          maxZoom: maxZoom ?? DEFAULT_DOWNLOAD_MAX_ZOOM,
          name,
          ...(replaces ? { replaces } : {}),
        });
      }),
    'regions:downloads': async () => downloads.list(),
    'regions:pause': ({ id }) => explained(() => downloads.pause(id)),
    'regions:resume': ({ id }) => explained(async () => downloads.resume(id)),
    'regions:cancel': ({ id }) =>
      explained(async () => {
        await downloads.cancel(id);
        return true;
      }),
  };
}
