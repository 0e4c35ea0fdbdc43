// Serves the built renderer (out/renderer) under app://fieldmap/. A custom standard scheme gives
// the app a real origin (unlike file://), so CSP 'self', fetch and IndexedDB behave as on the web.
import { readFile, realpath, stat } from 'node:fs/promises';
import { extname, isAbsolute, relative, resolve, sep } from 'node:path';
import { isProxyContentType } from '../core/basemap/remote-policy';
import type { CustomSchemePrivileges } from './shell-deps';

export const APP_SCHEME = 'app';
export const APP_HOST = 'fieldmap';
export const APP_ENTRY_URL = `${APP_SCHEME}://${APP_HOST}/index.html`;

/** Registered before ready: a standard, secure origin that fetch and streams work on. */
export const APP_SCHEME_PRIVILEGES: CustomSchemePrivileges = {
  standard: true,
  secure: true,
  supportFetchAPI: true,
  stream: true,
};

const MIME_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
  '.pbf': 'application/x-protobuf',
  '.pmtiles': 'application/octet-stream',
  '.txt': 'text/plain; charset=utf-8',
};

/** True for a URL of the app itself (any path under app://fieldmap/). */
export function isAppUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.protocol === `${APP_SCHEME}:` && parsed.host === APP_HOST;
  } catch {
    return false;
  }
}

/** Paths main's services answer (tile proxy, region files): data for the page, never a page. */
function isDynamicPath(pathname: string): boolean {
  const path = pathname.toLowerCase();
  return path === '/tiles' || path.startsWith('/tiles/') || path.startsWith('/regions/');
}

/** True for an app page a window may show: an app URL that is not a dynamic (data) path. */
export function isAppPageUrl(url: string): boolean {
  return isAppUrl(url) && !isDynamicPath(new URL(url).pathname);
}

const DOCUMENT_DESTINATIONS = new Set([
  'document',
  'iframe',
  'frame',
  'fencedframe',
  'embed',
  'object',
]);

/** A request that would show its answer as a page (a navigation, a frame, an embed). */
function isNavigation(request: Request): boolean {
  const mode = request.headers.get('sec-fetch-mode');
  const dest = request.headers.get('sec-fetch-dest');
  return mode === 'navigate' || (dest !== null && DOCUMENT_DESTINATIONS.has(dest));
}

function isInside(root: string, target: string): boolean {
  const rel = relative(root, target);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/**
 * The file under `rootDir` a request path names, or null when the path leaves the root
 * (`..`, encoded `%2e%2e`, `%2f`, backslashes, NUL). The decoded path is checked, not the raw one.
 */
export function resolveAppPath(rootDir: string, pathname: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null;
  const segments = decoded.split('/').filter((s) => s !== '');
  if (segments.some((s) => s === '..' || s === '.')) return null;
  const root = resolve(rootDir);
  const target = resolve(root, ...(segments.length > 0 ? segments : ['index.html']));
  return isInside(root, target) ? target : null;
}

/** An answer built by a main-process service for an app-origin path. */
export interface AppResponse {
  status: number;
  headers: Record<string, string>;
  body: Uint8Array | null;
}

/**
 * Serves dynamic app-origin paths (the basemap's regions/<id>.pmtiles range reads and its
 * tiles?url= cache), or returns null to fall through to the renderer's files.
 */
export type AppRequestHandler = (url: URL, range: string | null) => Promise<AppResponse | null>;

export interface AppProtocolOptions {
  rootDir: string;
  contentSecurityPolicy: string;
  dynamic?: AppRequestHandler;
  log?: (message: string) => void;
}

/** The handler for protocol.handle('app', ...): GET/HEAD of files under rootDir only. */
export function createAppProtocolHandler(
  options: AppProtocolOptions,
): (request: Request) => Promise<Response> {
  const log = options.log ?? ((message: string) => console.warn(message));
  const baseHeaders = {
    'Content-Security-Policy': options.contentSecurityPolicy,
    'X-Content-Type-Options': 'nosniff',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Referrer-Policy': 'no-referrer',
  };
  const refuse = (status: number, reason: string) =>
    new Response(reason, {
      status,
      headers: { ...baseHeaders, 'Content-Type': 'text/plain; charset=utf-8' },
    });
  let realRoot: Promise<string> | null = null;

  return async (request) => {
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return refuse(400, 'Bad request');
    }
    if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST) return refuse(404, 'Not found');
    if (request.method !== 'GET' && request.method !== 'HEAD')
      return refuse(405, 'Method not allowed');
    if (isDynamicPath(url.pathname) && isNavigation(request)) {
      log(`[app-protocol] refused a navigation to ${url.pathname.slice(0, 200)}`);
      return refuse(403, 'Forbidden');
    }
    if (options.dynamic) {
      try {
        const answer = await options.dynamic(url, request.headers.get('range'));
        if (answer) {
          // The security headers win over whatever the service set. Remote bytes that are not
          // tile or style content go out opaque, and sandboxed should anything render them.
          const headers = new Headers(answer.headers);
          for (const [name, value] of Object.entries(baseHeaders)) headers.set(name, value);
          if (!isProxyContentType(headers.get('content-type'))) {
            headers.set('Content-Type', 'application/octet-stream');
            headers.set('Content-Security-Policy', `${options.contentSecurityPolicy}; sandbox`);
          }
          // A Uint8Array is a valid body; the cast bridges Node's and the DOM's BodyInit typings.
          const body =
            request.method === 'HEAD'
              ? null
              : (answer.body as ConstructorParameters<typeof Response>[0]);
          return new Response(body, { status: answer.status, headers });
        }
      } catch (error) {
        log(
          `[app-protocol] ${url.pathname.slice(0, 200)} failed: ${error instanceof Error ? error.name : 'error'}`,
        );
        return refuse(500, 'Internal error');
      }
    }
    const file = resolveAppPath(options.rootDir, url.pathname);
    if (!file) {
      log(`[app-protocol] refused path outside the app: ${url.pathname.slice(0, 200)}`);
      return refuse(403, 'Forbidden');
    }
    try {
      // A symlink inside the root must not lead outside it either.
      // The root first: a missing file must not leave the root's promise rejected unawaited.
      const root = await (realRoot ??= realpath(options.rootDir));
      const real = await realpath(file);
      if (!isInside(root, real)) {
        log(`[app-protocol] refused link outside the app: ${url.pathname.slice(0, 200)}`);
        return refuse(403, 'Forbidden');
      }
      if (!(await stat(real)).isFile()) return refuse(404, 'Not found');
      const body = request.method === 'HEAD' ? null : await readFile(real);
      const type = MIME_TYPES[extname(real).toLowerCase()] ?? 'application/octet-stream';
      return new Response(body, { status: 200, headers: { ...baseHeaders, 'Content-Type': type } });
    } catch {
      return refuse(404, 'Not found');
    }
  };
}
