// Issue 15, the rep's field day, second half: selection and bulk actions (with the 5,000-customer
// delete) and the Excel import. The first half is field-day.test.ts; see there why there are two.
import './field-day/bulk.suite';
import './field-day/xlsx-import.suite';
