// A parser with a bug: it keeps everything it makes, past any heap (test/workflow/hostile-xlsx.test.ts).
import { serveParse } from '../../../src-main/core/untrusted/serve-parse';

serveParse(
  async () => {
    const kept: string[][] = [];
    for (let i = 0; ; i++) kept.push(Array.from({ length: 10_000 }, (_, j) => `cell ${i} ${j}`));
  },
  () => null,
);
