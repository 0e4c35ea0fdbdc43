// Issue 15, the rep's field day: each area's tests live in field-day/<area>.suite.ts and register here, so they run as one file.
import './field-day/week-plan.suite';
import './field-day/nearby.suite';
import './field-day/filters.suite';
import './field-day/bulk.suite';
import './field-day/xlsx-import.suite';
