// A parser with a bug: it throws an error that is no refusal (test/workflow/hostile-xlsx.test.ts).
import { serveParse } from '../../../src-main/core/untrusted/serve-parse';

serveParse(
  async () => {
    const sheet = null as unknown as { rows: unknown[] };
    return sheet.rows.length;
  },
  () => null,
);
