// Issue 15, the rep's field day: each area's tests live in field-day/<area>.suite.ts and register
// in one of two files (this one, and field-day-bulk-import.test.ts), so the two halves of the
// day run in parallel forks: as one file its 24 Chromium tests were the longest file of
// `npm test` (199 s of a 649 s test phase on 2 cores).
import './field-day/week-plan.suite';
import './field-day/nearby.suite';
import './field-day/filters.suite';
