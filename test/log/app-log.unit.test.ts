// Main's log file on a real temp dir: rotation and its bound, a write error that loses lines but
// not the process, and the event table refusing anything that is not a typed field.
import { chmod, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppLog } from '../../src-main/core/log/app-log';
import { logLine } from '../../src-main/core/log/events';
import { RotatingLogFile } from '../../src-main/core/log/log-file';
import { appStackFrames, type RendererErrorReport } from '../../src-shared/support';
import { RENDERER_ERRORS_PER_MINUTE, rendererErrorLog } from '../../src-main/app/support';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fieldmap-log-'));
});
afterEach(async () => {
  await chmod(dir, 0o700).catch(() => undefined);
  await rm(dir, { recursive: true, force: true });
});

const lines = async (path: string) =>
  (await readFile(path, 'utf8'))
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe('the log file', () => {
  it('rotates by size and keeps at most the set number of files, each under the cap', async () => {
    const file = new RotatingLogFile({ dir, maxFileBytes: 1_000, files: 3 });
    for (let i = 0; i < 200; i++) {
      file.append(JSON.stringify({ i, pad: 'x'.repeat(40) }));
      if (i % 10 === 9) await file.flush();
    }
    await file.flush();
    expect((await readdir(dir)).sort()).toEqual([
      'fieldmap.1.log',
      'fieldmap.2.log',
      'fieldmap.log',
    ]);
    for (const path of file.paths()) expect((await stat(path)).size).toBeLessThanOrEqual(1_000);
    // The newest lines are in the current file, the ones before them in .1, then .2.
    const [current, one, two] = await Promise.all(file.paths().map(lines));
    expect(current!.at(-1)).toMatchObject({ i: 199 });
    expect(one!.at(-1)!.i).toBe((current![0]!.i as number) - 1);
    expect(two!.at(-1)!.i).toBe((one![0]!.i as number) - 1);
  });

  it('bounds what waits in memory: lines beyond it are counted and said, not kept', async () => {
    const file = new RotatingLogFile({
      dir,
      maxPendingBytes: 200,
      droppedLine: (count) => JSON.stringify({ dropped: count }),
    });
    for (let i = 0; i < 50; i++) file.append(JSON.stringify({ i }));
    await file.flush();
    file.append(JSON.stringify({ after: true }));
    await file.flush();
    const written = await lines(file.path);
    const kept = written.filter((line) => 'i' in line).length;
    expect(kept).toBeLessThan(50);
    expect(written).toContainEqual({ dropped: 50 - kept });
    expect(written.at(-1)).toEqual({ after: true });
  });

  it('a write that fails loses its lines, not the process, and the next write goes through', async () => {
    // The log's "folder" is a file: every write fails as on a broken disk.
    const blocked = join(dir, 'blocked');
    await writeFile(blocked, 'not a folder');
    const file = new RotatingLogFile({
      dir: blocked,
      droppedLine: (count) => JSON.stringify({ dropped: count }),
    });
    file.append('{"lost":1}');
    await file.flush();
    expect(file.failures).toBe(1);
    await rm(blocked);
    file.append('{"kept":1}');
    await file.flush();
    expect(await lines(file.path)).toEqual([{ dropped: 1 }, { kept: 1 }]);
  });
});

describe('the event table', () => {
  it('writes a known event with its typed fields', async () => {
    const log = new AppLog({ dir, clock: { now: () => Date.UTC(2026, 0, 2) } });
    log.record('sync.state', { state: 'synced', queued: 3 });
    log.record('ipc.failed', { channel: 'session:login', kind: 'Unauthorized' });
    await log.flush();
    expect(await lines(join(dir, 'fieldmap.log'))).toEqual([
      { t: '2026-01-02T00:00:00.000Z', event: 'sync.state', state: 'synced', queued: 3 },
      {
        t: '2026-01-02T00:00:00.000Z',
        event: 'ipc.failed',
        channel: 'session:login',
        kind: 'Unauthorized',
      },
    ]);
  });

  it('refuses a field that is not one of the event’s, or a value that does not fit its type, keeping neither', () => {
    const secret = 'Hunter2 Alice Smith alice@example.com';
    for (const fields of [
      { state: 'synced', message: secret },
      { state: secret },
      { state: 'synced', queued: secret },
    ]) {
      const line = logLine(0, 'sync.state', fields);
      expect(line).not.toContain('Hunter2');
      expect(line).not.toContain('message');
      expect(JSON.parse(line)).toMatchObject({ event: 'log.refused', refused: 'sync.state' });
    }
    expect(JSON.parse(logLine(0, 'sync.state', { state: secret }))).toMatchObject({
      fields: ['state'],
    });
    expect(logLine(0, secret, {})).not.toContain('Hunter2');
    expect(
      logLine(0, 'session.changed', { account: 'alice@example.com', demo: false }),
    ).not.toContain('alice');
  });
});

describe('a renderer error’s frames', () => {
  it('keeps the frames in the app’s own bundle as file, line and column, and nothing else', () => {
    const stack = [
      'TypeError: Cannot read properties of undefined (reading "Alice Smith")',
      '    at render (app://fieldmap/assets/index-Bx3.js:12:345)',
      '    at app://fieldmap/assets/worker-9.js?v=1:7:8',
      '    at https://evil.example/x.js:1:2',
      '    at <anonymous>:1:1',
    ].join('\n');
    expect(appStackFrames(stack, 'app://fieldmap/assets/')).toEqual([
      { file: 'index-Bx3.js', line: 12, column: 345 },
      { file: 'worker-9.js', line: 7, column: 8 },
    ]);
  });
});

describe('the page’s errors into the log', () => {
  it('writes at most 20 a minute, then one line counting the ones refused', async () => {
    const log = new AppLog({ dir, clock: { now: () => 0 } });
    let now = 0;
    const report = rendererErrorLog(log, { now: () => now });
    const error: RendererErrorReport = { source: 'error', name: 'TypeError', frames: [] };
    const answers = Array.from({ length: 25 }, () => report(error));
    expect(answers.filter(Boolean)).toHaveLength(RENDERER_ERRORS_PER_MINUTE);
    now = 59_999;
    expect(report(error)).toBe(false);
    now = 60_000;
    expect(report(error)).toBe(true);
    await log.flush();
    const events = (await lines(join(dir, 'fieldmap.log'))).map((l) => l.event);
    expect(events).toEqual([
      ...Array<string>(RENDERER_ERRORS_PER_MINUTE).fill('renderer.error'),
      'renderer.errorsDropped',
      'renderer.error',
    ]);
    expect((await lines(join(dir, 'fieldmap.log')))[20]).toMatchObject({ count: 6 });
  });
});
