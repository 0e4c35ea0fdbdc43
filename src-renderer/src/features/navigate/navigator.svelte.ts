// "Navigate": the rep's navigation app (kept on this computer), and the links that hand it a
// customer or a day's stops in order (src-shared/navigate.ts). Main opens each link only from a
// click (its external-link guard), so a day its app cannot take in one link shows its legs as
// buttons, one click each.
import type { FieldmapApi } from '../../../../src-shared/ipc-contract';
import {
  defaultNavProvider,
  isNavProvider,
  navigationLinks,
  type NavLink,
  type NavProvider,
  type NavStop,
} from '../../../../src-shared/navigate';
import { text } from './text';

const STORAGE_KEY = 'fieldmap:navigation-app';

export class Navigator {
  #provider = $state<NavProvider>('google');
  /** Why the last link did not open, or null. */
  error = $state<string | null>(null);

  constructor(
    private readonly api: Pick<FieldmapApi, 'openExternal'>,
    private readonly storage: Storage,
    platform: string,
  ) {
    const stored = storage.getItem(STORAGE_KEY);
    this.#provider = isNavProvider(stored) ? stored : defaultNavProvider(platform);
  }

  get provider(): NavProvider {
    return this.#provider;
  }

  set provider(provider: NavProvider) {
    this.#provider = provider;
    this.storage.setItem(STORAGE_KEY, provider);
  }

  /** The links through `stops`, in order, for the chosen app. */
  links(stops: readonly NavStop[]): NavLink[] {
    return navigationLinks(this.#provider, stops);
  }

  /** Opens one link (call it from the click itself: main refuses any other). */
  async open(url: string): Promise<void> {
    this.error = null;
    try {
      await this.api.openExternal({ url });
    } catch (error) {
      const message = (error as { message?: unknown } | null)?.message;
      this.error = text.navigator.openFailed(typeof message === 'string' ? message : String(error));
    }
  }
}
