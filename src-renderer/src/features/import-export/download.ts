// Files the rep saves: a CSV text or the map as PNG, handed to the browser's download.
import type { Map as MapLibreMap } from 'maplibre-gl';

/** Offers `blob` as a download named `fileName`. */
export function saveBlob(fileName: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // The download has its own reference by now; give it a moment before revoking.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * The map as PNG. WebGL clears the drawing buffer after each frame unless it is preserved, so
 * the canvas is read inside the 'render' event of a fresh frame, while the frame is still there.
 */
export function mapToPng(map: MapLibreMap): Promise<Blob> {
  return new Promise((resolve, reject) => {
    map.once('render', () => {
      try {
        const dataUrl = map.getCanvas().toDataURL('image/png');
        const bytes = Uint8Array.from(atob(dataUrl.split(',')[1] ?? ''), (c) => c.charCodeAt(0));
        resolve(new Blob([bytes], { type: 'image/png' }));
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
    map.triggerRepaint();
  });
}

/** A file name with today's date: `<stem>-YYYY-MM-DD.<ext>`. */
export function datedFileName(stem: string, ext: string, now = new Date()): string {
  return `${stem}-${now.toISOString().slice(0, 10)}.${ext}`;
}
