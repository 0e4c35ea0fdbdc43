// A player of Windows' file system for main's DurableFs, on real files in a temp dir: Windows
// cannot run here. It plays what Windows documents and libuv (Node 24, Electron 45) reports:
// - a directory opens (libuv's fs__open sets FILE_FLAG_BACKUP_SEMANTICS), but FlushFileBuffers
//   refuses a directory handle: sync() fails EPERM (nodejs/node#3879); opened for writing, a
//   directory is EISDIR (libuv's fs__open special case);
// - a scanner (antivirus, Search indexer) opens every file that was just written: a rename or
//   delete of it fails with ERROR_ACCESS_DENIED / ERROR_SHARING_VIOLATION (EPERM, EBUSY, EACCES)
//   until it lets go: here the first `heldFor` tries of each written file, or always for the
//   paths `holdsForever` names;
// - a rename replaces an existing file (libuv's MoveFileExW with MOVEFILE_REPLACE_EXISTING);
// - names (learn.microsoft.com "Naming Files, Paths, and Namespaces"): <>:"|?* and control
//   characters are ERROR_INVALID_NAME (ENOENT in libuv); CON, PRN, AUX, NUL, COM0-9, LPT0-9
//   (with any extension) are devices, and a trailing dot or space is stripped: Windows goes on
//   silently with another file there, so the player refuses them loudly (EWINNAME) for a test
//   to see; a path longer than MAX_PATH (260 with its NUL) counted from `profileDir` in place of
//   `root` is ENAMETOOLONG (ERROR_FILENAME_EXCED_RANGE);
// - names are case-insensitive (NTFS as Windows uses it, and APFS on macOS): creating a name
//   that differs from an existing entry only by case would open that entry; refused (EWINCASE).
import { sep } from 'node:path';
import type { FileHandle } from 'node:fs/promises';
import { DurableFs, nodeFsOps, type FsOps } from '../../src-main/core/durable-fs';

/** A deep roaming profile: a long user name under a redirected AppData. */
export const DEEP_PROFILE =
  '\\\\fileserver01.corp.example.com\\profiles$\\firstname.lastname-contractor\\AppData\\Roaming\\Fieldmap';

const HELD_CODES = ['EPERM', 'EBUSY', 'EACCES'] as const;
const MAX_PATH = 260;

export interface WindowsPlayOptions {
  /** How many renames or deletes of a just-written file fail before the scanner lets go. */
  heldFor?: number;
  /** Paths the scanner never lets go of (a rename from or to them, a delete of them). */
  holdsForever?: (path: string) => boolean;
  /** The Windows folder `root` stands for, when paths are measured against MAX_PATH. */
  profileDir?: string;
}

export interface WindowsPlayer {
  fs: DurableFs;
  ops: FsOps;
  /** Failures the scanner caused, by code. */
  held: Record<string, number>;
  /** Every wait DurableFs asked for between retries (no wall time passes). */
  sleeps: number[];
  /** Directories opened and fsync'd (Windows refused each). */
  dirSyncs: string[];
}

function failure(code: string, syscall: string, path: string, why: string): Error {
  return Object.assign(new Error(`${code}: ${why}, ${syscall} '${path}'`), {
    code,
    syscall,
    path,
  });
}

const RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\..*)?$/i;
// eslint-disable-next-line no-control-regex -- control characters are what Windows refuses
const INVALID_CHARS = /[<>:"|?*\u0000-\u001f\\]/;

/** Plays Windows over the real files under `root` (a temp dir). */
export function playWindows(root: string, options: WindowsPlayOptions = {}): WindowsPlayer {
  const real = nodeFsOps;
  const heldFor = options.heldFor ?? 2;
  const profileDir = options.profileDir ?? DEEP_PROFILE;
  const tries = new Map<string, number>();
  const player: WindowsPlayer = {
    fs: undefined as unknown as DurableFs,
    ops: undefined as unknown as FsOps,
    held: {},
    sleeps: [],
    dirSyncs: [],
  };

  const below = (path: string): string[] | null =>
    path.startsWith(root + sep) ? path.slice(root.length + 1).split(sep) : null;

  /** Throws as Windows would (or refuses where Windows would silently do something else). */
  async function checkCreated(path: string, syscall: string): Promise<void> {
    const parts = below(path);
    if (!parts) return;
    if (profileDir.length + path.length - root.length >= MAX_PATH) {
      throw failure('ENAMETOOLONG', syscall, path, 'longer than MAX_PATH on Windows');
    }
    let dir = root;
    for (const part of parts) {
      if (INVALID_CHARS.test(part))
        throw failure('ENOENT', syscall, path, `"${part}" is an invalid name on Windows`);
      if (RESERVED.test(part) || /[. ]$/.test(part))
        throw failure('EWINNAME', syscall, path, `Windows would not create "${part}" as named`);
      const entries = await real.readdir(dir).catch(() => [] as string[]);
      const twin = entries.find((e) => e !== part && e.toLowerCase() === part.toLowerCase());
      if (twin)
        throw failure('EWINCASE', syscall, path, `"${part}" would open the existing "${twin}"`);
      dir = `${dir}${sep}${part}`;
    }
  }

  /** The scanner's hold on `path`: fails this try when it still holds the file. */
  function scan(key: string, involved: string[], syscall: string): void {
    if (!below(key)) return;
    const count = tries.get(key) ?? 0;
    if (!involved.some((p) => options.holdsForever?.(p)) && count >= heldFor) return;
    tries.set(key, count + 1);
    const code = HELD_CODES[count % HELD_CODES.length]!;
    player.held[code] = (player.held[code] ?? 0) + 1;
    throw failure(code, syscall, key, 'held by another process');
  }

  const exists = (path: string) =>
    real.stat(path).then(
      (s) => s,
      () => null,
    );

  const ops: FsOps = {
    ...real,
    async open(path, flags, mode) {
      const writes = /[wa+x]/.test(flags);
      const found = await exists(path);
      if (found?.isDirectory()) {
        if (writes) throw failure('EISDIR', 'open', path, 'illegal operation on a directory');
        return refuseSync(await real.open(path, flags, mode), path, player.dirSyncs);
      }
      if (writes) {
        if (!found) await checkCreated(path, 'open');
        tries.delete(path); // written now: the scanner will open it
      }
      return real.open(path, flags, mode);
    },
    async rename(from, to) {
      await checkCreated(to, 'rename');
      scan(from, [from, to], 'rename');
      await real.rename(from, to);
      tries.delete(from);
    },
    async rm(path, rmOptions) {
      if (await exists(path)) scan(path, [path], rmOptions.recursive ? 'rmdir' : 'unlink');
      await real.rm(path, rmOptions);
      tries.delete(path);
    },
    async mkdir(path, mkdirOptions) {
      if (!(await exists(path))) await checkCreated(path, 'mkdir');
      return real.mkdir(path, mkdirOptions);
    },
    async link(existing, path) {
      await checkCreated(path, 'link');
      return real.link(existing, path);
    },
    async copyFile(from, to) {
      await checkCreated(to, 'copyfile');
      await real.copyFile(from, to);
      tries.delete(to);
    },
  };
  player.ops = ops;
  player.fs = new DurableFs({
    ops,
    platform: 'win32',
    sleep: (ms) => {
      player.sleeps.push(ms);
      return Promise.resolve();
    },
  });
  return player;
}

/** A directory's handle as Windows gives it: reads work, FlushFileBuffers is refused. */
function refuseSync(handle: FileHandle, path: string, log: string[]): FileHandle {
  const refuse = () => {
    log.push(path);
    return Promise.reject(failure('EPERM', 'fsync', path, 'operation not permitted'));
  };
  return new Proxy(handle, {
    get(target, property) {
      if (property === 'sync' || property === 'datasync') return refuse;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
    },
  });
}

/** The platforms the file suites run over: this machine's, and Windows played. */
export const FS_PLATFORMS = ['posix', 'win32'] as const;
export type FsPlatform = (typeof FS_PLATFORMS)[number];

/** The env var a test sets for its child processes to pick the same platform. */
export const FS_PLATFORM_ENV = 'FIELDMAP_TEST_FS';

/** The DurableFs for `platform` over `root` (undefined: the real one, the product's default). */
export function fsFor(platform: FsPlatform, root: string): DurableFs | undefined {
  return platform === 'win32' ? playWindows(root).fs : undefined;
}

/** The platform a child process was started for. */
export function platformFromEnv(): FsPlatform {
  return process.env[FS_PLATFORM_ENV] === 'win32' ? 'win32' : 'posix';
}
