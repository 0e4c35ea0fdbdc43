// A parser with a bug: it never ends (test/workflow/hostile-xlsx.test.ts).
import { serveParse } from '../../../src-main/core/untrusted/serve-parse';

serveParse(
  async () => {
    let n = 0;
    for (;;) n = (n + 1) % 7;
  },
  () => null,
);
