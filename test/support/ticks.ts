// Counts turns of Node's event loop (a setImmediate that schedules itself) while some work
// runs: work that lets the loop go between its slices lets the ticker run, work done in one go
// does not. Counts turns, not time, so it holds on a slow machine too.
export function immediateTicker(): { readonly count: number; stop(): void } {
  let count = 0;
  let ticking = true;
  const tick = () => {
    count++;
    if (ticking) setImmediate(tick);
  };
  setImmediate(tick);
  return {
    get count() {
      return count;
    },
    stop() {
      ticking = false;
    },
  };
}
