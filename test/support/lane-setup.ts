// Every lane's setup file (vitest.config.ts): notes when each test and each file's setup begins,
// so a wait inside it (support/until.ts) gives up just before the test's own bound and names
// what it waited for.
import { beforeAll, beforeEach } from 'vitest';
import { markTestStart } from './until';

beforeAll(markTestStart);
beforeEach(markTestStart);
