// A fetch the runner can cut, to play "offline" for the main-process services the way a laptop
// without a network fails: the connection is refused before anything is sent.
export interface NetworkSwitch {
  fetch: typeof globalThis.fetch;
  offline: boolean;
}

export function networkSwitch(base: typeof globalThis.fetch, offline = false): NetworkSwitch {
  const state: NetworkSwitch = {
    offline,
    fetch: (input, init) => {
      if (!state.offline) return base(input, init);
      const cause = Object.assign(new Error('connect ECONNREFUSED (runner is offline)'), {
        code: 'ECONNREFUSED',
      });
      return Promise.reject(new TypeError('fetch failed', { cause }));
    },
  };
  return state;
}
