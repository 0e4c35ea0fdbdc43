// The scale bench's list filters and sorts (scale.ts): each sort button and filter option of the
// running app, input to the next painted frame, and for a filter input to the map holding
// exactly the filtered pins (the map's filter-applied mark).
import type { Page } from 'playwright-core';
import { MAP_FILTER_APPLIED_MARK } from '../../../src-renderer/src/map/layers/pin-filter';

/**
 * Every sort and filter of the list, input to the next painted frame (ms each), and for each
 * filter input to the map's filter-applied mark (ms each).
 */
export function filterSortTimes(
  page: Page,
  waitMs: number,
): Promise<{ times: number[]; mapTimes: number[] }> {
  return page.evaluate(
    async ([mark, waitMs]) => {
      const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
      const times: number[] = [];
      const mapTimes: number[] = [];
      let step = '';
      const applied = (t0: number) =>
        new Promise<number>((resolve, reject) => {
          const check = () => {
            const at = performance.getEntriesByName(mark).find((m) => m.startTime >= t0);
            if (at) resolve(at.startTime - t0);
            else if (performance.now() - t0 > waitMs)
              reject(new Error(`waited ${Math.round(waitMs / 1000)} s after ${step} for ${mark}`));
            else setTimeout(check, 5);
          };
          check();
        });
      const time = async (act: () => void, map = false) => {
        const t0 = performance.now();
        act();
        await frame();
        times.push(performance.now() - t0);
        if (map) mapTimes.push(await applied(t0));
      };
      const select = (label: string) =>
        document.querySelector<HTMLSelectElement>(`select[aria-label="${label}"]`)!;
      const choose = (s: HTMLSelectElement, value: string) => () => {
        s.value = value;
        s.dispatchEvent(new Event('change', { bubbles: true }));
      };
      for (const key of ['company', 'city', 'lastVisit', 'name', 'name']) {
        await time(() =>
          document.querySelector<HTMLButtonElement>(`button[data-sort="${key}"]`)!.click(),
        );
      }
      // The visit filter is the toolbar's list button (ui/ChoiceButton.svelte): opened untimed,
      // then the option's click is timed as a select's change is.
      const visitButton = document.querySelector<HTMLButtonElement>(
        'button[aria-controls="visit-filter-list"]',
      )!;
      const openVisit = async () => {
        visitButton.click();
        await frame();
        return [...document.querySelectorAll<HTMLElement>('#visit-filter-list [role=option]')];
      };
      const visitValues = (await openVisit()).map((o) => o.dataset['value']!);
      visitButton.click();
      await frame();
      for (const v of [...visitValues.slice(1), visitValues[0]!]) {
        step = `Filter by visit = ${v}`;
        const options = await openVisit();
        await time(() => options.find((o) => o.dataset['value'] === v)!.click(), true);
      }
      for (const label of ['Filter by color', 'Filter by group']) {
        const s = select(label);
        const values = [...s.options].map((o) => o.value);
        for (const v of values.slice(1)) {
          step = `${label} = ${v}`;
          await time(choose(s, v), true);
        }
        step = `${label} = ${values[0]!} (reset)`;
        await time(choose(s, values[0]!), true);
      }
      return { times, mapTimes };
    },
    [MAP_FILTER_APPLIED_MARK, waitMs] as const,
  );
}
