// The week planner's worker (see week-plan-run.ts): built by Vite as its own module file, loaded
// from the app's origin ('self' in the CSP's worker-src).
import { servePlanWeek, type PlanPort } from './week-plan-run';

servePlanWeek(self as unknown as PlanPort);
