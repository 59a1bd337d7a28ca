import type { Plan } from '../plan-format';

/** The plan as JSON (the saved-plan format, `formatVersion` included), pretty-printed. */
export function renderJson(plan: Plan): string {
  return JSON.stringify(plan, null, 2) + '\n';
}
