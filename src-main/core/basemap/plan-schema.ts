// The strict shape of a download plan: checked when the plan worker hands one back and when a
// resume file (plan.json of an interrupted download) is read again. A plan says where each fetched
// byte is written, so a tampered or torn file must not make main write outside the region's file,
// fetch from a host no one confirmed, or lay out gigabytes: every field is typed and bounded, and
// every piece lies inside its range and inside the planned file.
import * as v from 'valibot';
import { RegionAreaSchema } from '../../../src-shared/basemap';
import { HEADER_BYTES } from './pmtiles-format';
import { MAX_REGION_BYTES, MAX_REQUEST_BYTES, type DownloadPlan } from './region-plan';
import { checkSourceUrl } from './region-source';

const Count = v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(Number.MAX_SAFE_INTEGER));
const Base64 = (maxChars: number) =>
  v.pipe(v.string(), v.maxLength(maxChars), v.regex(/^[A-Za-z0-9+/]*={0,2}$/));
const isUrl = (raw: string) => {
  try {
    return checkSourceUrl(raw) === raw;
  } catch {
    return false;
  }
};

/** Flat triples of whole numbers: offset in the range, offset in the tile data, length. */
const Pieces = v.custom<number[]>(
  (input) =>
    Array.isArray(input) &&
    input.length % 3 === 0 &&
    input.every((n) => Number.isSafeInteger(n) && (n as number) >= 0),
  'pieces must be triples of whole numbers',
);

const DownloadPlanEntries = {
  version: v.literal(1),
  sourceUrl: v.pipe(v.string(), v.maxLength(2048), v.check(isUrl, 'not a usable source URL')),
  etag: v.pipe(v.string(), v.maxLength(1024)),
  /** The source's 127-byte header. */
  sourceHeader: v.pipe(Base64(172), v.length(172)),
  dataDate: v.nullable(v.pipe(v.string(), v.maxLength(64))),
  bounds: v.tuple([v.number(), v.number(), v.number(), v.number()]),
  maxZoom: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(15)),
  tileCount: Count,
  head: Base64(Math.ceil(MAX_REGION_BYTES / 3) * 4),
  totalBytes: v.pipe(Count, v.maxValue(MAX_REGION_BYTES)),
  downloadBytes: Count,
  ranges: v.array(
    v.strictObject({
      offset: Count,
      length: v.pipe(Count, v.minValue(1), v.maxValue(MAX_REQUEST_BYTES)),
      pieces: Pieces,
    }),
  ),
  directoryRequests: Count,
};

/** Every piece inside its range and inside the planned file; the byte counts add up. */
function consistent<
  T extends Pick<DownloadPlan, 'head' | 'totalBytes' | 'downloadBytes' | 'ranges'>,
>(plan: T): boolean {
  const headBytes = Buffer.byteLength(plan.head, 'base64');
  if (headBytes < HEADER_BYTES || headBytes > plan.totalBytes) return false;
  const dataBytes = plan.totalBytes - headBytes;
  let download = 0;
  for (const range of plan.ranges) {
    download += range.length;
    const p = range.pieces;
    for (let k = 0; k < p.length; k += 3) {
      if (p[k]! + p[k + 2]! > range.length || p[k + 1]! + p[k + 2]! > dataBytes) return false;
    }
  }
  return download === plan.downloadBytes;
}

export const DownloadPlanSchema = v.pipe(
  v.strictObject(DownloadPlanEntries),
  v.check((plan) => consistent(plan), 'the plan writes outside its file'),
);

/** A plan as a download keeps it on disk: the plan, the region's name, area and what it replaces. */
export const StoredPlanSchema = v.pipe(
  v.strictObject({
    ...DownloadPlanEntries,
    name: v.pipe(v.string(), v.minLength(1), v.maxLength(200)),
    area: RegionAreaSchema,
    replaces: v.nullable(v.pipe(v.string(), v.regex(/^[a-z0-9-]{1,64}$/))),
  }),
  v.check((plan) => consistent(plan), 'the plan writes outside its file'),
);
export type StoredPlan = v.InferOutput<typeof StoredPlanSchema>;
