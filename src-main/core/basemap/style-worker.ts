// The worker thread that reads the URLs of one style or TileJSON (parseInWorker,
// core/untrusted/): its bytes come in transferred, the URLs go back.
import { serveParse } from '../untrusted/serve-parse';
import { learnableUrls, StyleRefused } from './style-urls';

export interface StyleWorkerInput {
  data: Uint8Array;
}

serveParse(
  async ({ data }: StyleWorkerInput) => learnableUrls(data),
  (error) => (error instanceof StyleRefused ? error.message : null),
);
