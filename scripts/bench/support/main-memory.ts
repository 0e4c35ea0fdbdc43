// Where a process's resident memory is, by its mappings (/proc/<pid>/smaps), for the scale
// bench's debug output: glibc's main heap (brk), its other arenas (64 MiB-aligned heaps), other
// anonymous memory (V8's pages, malloc's mmapped chunks, stacks) and files (code). RSS that
// neither V8's heap nor live external memory explains is freed memory the allocator kept.
import { readFile } from 'node:fs/promises';

export interface RssParts {
  rss: number;
  brk: number;
  arenas: number;
  anon: number;
  file: number;
}

const ARENA = 64 * 2 ** 20;

export async function rssParts(pid: number): Promise<RssParts> {
  const text = await readFile(`/proc/${pid}/smaps`, 'utf8').catch(() => '');
  const parts: RssParts = { rss: 0, brk: 0, arenas: 0, anon: 0, file: 0 };
  type Map = { start: number; end: number; perms: string; path: string; rss: number };
  const maps: Map[] = [];
  let current: Map | null = null;
  for (const line of text.split('\n')) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      current = {
        start: parseInt(head[1]!, 16),
        end: parseInt(head[2]!, 16),
        perms: head[3]!,
        path: head[4]!,
        rss: 0,
      };
      maps.push(current);
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss && current) current.rss = Number(rss[1]) * 1024;
  }
  for (let i = 0; i < maps.length; i++) {
    const m = maps[i]!;
    parts.rss += m.rss;
    if (m.path === '[heap]') parts.brk += m.rss;
    else if (m.path.startsWith('/')) parts.file += m.rss;
    else if (m.path === '') {
      const next = maps[i + 1];
      const arena =
        m.start % ARENA === 0 &&
        (m.end % ARENA === 0 ||
          (next && next.start === m.end && next.perms.startsWith('---') && next.end % ARENA === 0));
      if (arena) parts.arenas += m.rss;
      else parts.anon += m.rss;
    } else parts.anon += m.rss;
  }
  return parts;
}

export function partsText(p: RssParts): string {
  const mb = (b: number) => Math.round(b / 2 ** 20);
  return (
    `RSS ${mb(p.rss)} MB: malloc brk ${mb(p.brk)}, malloc arenas ${mb(p.arenas)}, ` +
    `other anon (V8, mmapped chunks) ${mb(p.anon)}, files ${mb(p.file)}`
  );
}

/** What the child says of its memory (ChildMemory's fields this reads), in bytes. */
interface Usage {
  heapTotal: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
  spaces: Record<string, number>;
}

/** Main's RSS by mappings, V8's heap by space and external memory, as one line (MB). */
export async function memoryText(pid: number, usage: Usage): Promise<string> {
  const mb = (b: number) => Math.round(b / 2 ** 20);
  const spaces = Object.entries(usage.spaces)
    .filter(([, b]) => b > 2 ** 20)
    .map(([name, b]) => `${name} ${mb(b)}`)
    .join(', ');
  return (
    `${partsText(await rssParts(pid))}; V8 heap committed ${mb(usage.heapTotal)}, used ` +
    `${mb(usage.heapUsed)} (${spaces}), external ${mb(usage.external)} (array buffers ` +
    `${mb(usage.arrayBuffers)})`
  );
}
