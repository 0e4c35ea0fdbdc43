// What the page tells main when it fails, and what main tells the page after it reloaded it.
// Both are shapes with no room for free text: an error is its class name and where in the app's
// own bundle it was thrown, never its message (which may quote a customer or a service body).
import * as v from 'valibot';

/** An error's class name as JavaScript spells them (TypeError, DexieError): no spaces, no text. */
export const ErrorNameSchema = v.pipe(v.string(), v.regex(/^[A-Z][A-Za-z0-9]{0,63}$/));

/** One frame of a stack in the app's own bundle: the file's name, line and column. */
export const StackFrameSchema = v.strictObject({
  file: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_.-]{1,100}$/)),
  line: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(10_000_000)),
  column: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(10_000_000)),
});
export type StackFrame = v.InferOutput<typeof StackFrameSchema>;

export const RENDERER_ERROR_FRAMES = 8;

/** An uncaught error or unhandled rejection of the page, as the page reports it to main. */
export const RendererErrorReportSchema = v.strictObject({
  source: v.picklist(['error', 'unhandledrejection']),
  name: ErrorNameSchema,
  frames: v.pipe(v.array(StackFrameSchema), v.maxLength(RENDERER_ERROR_FRAMES)),
});
export type RendererErrorReport = v.InferOutput<typeof RendererErrorReportSchema>;

/** What main tells a page it reloaded: the page before it crashed, or hung and was restarted. */
export const ShellNoticeSchema = v.object({
  kind: v.picklist(['crashed', 'unresponsive']),
  at: v.number(),
});
export type ShellNotice = v.InferOutput<typeof ShellNoticeSchema>;

/** The frames of `stack` that lie in files under `assetsUrl` (the page's own bundle), at most 8. */
export function appStackFrames(stack: string, assetsUrl: string): StackFrame[] {
  const frames: StackFrame[] = [];
  // V8 writes "at fn (URL:line:col)" or "at URL:line:col"; the URL runs to the last two numbers.
  for (const match of stack.matchAll(/(\S+):(\d+):(\d+)\)?$/gm)) {
    const url = match[1]!.replace(/^\(/, '');
    if (!url.startsWith(assetsUrl)) continue;
    const file = url.slice(assetsUrl.length).split(/[?#]/)[0]!;
    const frame = { file, line: Number(match[2]), column: Number(match[3]) };
    if (!v.is(StackFrameSchema, frame)) continue;
    frames.push(frame);
    if (frames.length === RENDERER_ERROR_FRAMES) break;
  }
  return frames;
}

/** The message the page shows after main reloaded it. */
export function noticeText(notice: ShellNotice): string {
  const what =
    notice.kind === 'crashed'
      ? 'Fieldmap’s window stopped unexpectedly and was reopened.'
      : 'Fieldmap’s window stopped responding and was restarted.';
  return `${what} Your changes waiting to be sent are safe on this laptop.`;
}
