import { asyncLocalStorage } from '@temporalio/activity';
import type { Logger } from '@temporalio/common';

// What an activity takes from Temporal's activity context. Tests also call activities as plain
// functions, outside any context: then the console logs.

/** The running activity's logger (its records name the activity and workflow), else the console. */
export function activityLogger(): Pick<Logger, 'warn'> {
  return asyncLocalStorage.getStore()?.log ?? console;
}
