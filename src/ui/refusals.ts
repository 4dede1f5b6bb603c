import { EvalflowApiError } from '../client/index.js';

// What the page says when the API refuses: its own message, and each issue it listed.

export interface Refusal {
  status: number | null;
  message: string;
  details: string[];
}

export function refusalOf(error: unknown): Refusal {
  if (error instanceof EvalflowApiError) {
    return {
      status: error.status,
      message: error.message,
      details: (error.errors ?? []).map(issueText),
    };
  }
  return {
    status: null,
    message: error instanceof Error ? error.message : String(error),
    details: [],
  };
}

/** The API no longer takes the tab's token: it expired, was revoked, or was never good. */
export const isSignInRefused = (error: unknown): boolean =>
  error instanceof EvalflowApiError && error.status === 401;

/** Sends an error where the page says it: a refused sign-in signs the tab out, else `show`. */
export function routeRefusal(
  error: unknown,
  onSignInRefused: (message: string) => void,
  show: (refusal: Refusal) => void,
): void {
  const refusal = refusalOf(error);
  if (isSignInRefused(error)) onSignInRefused(refusal.message);
  else show(refusal);
}

function issueText(issue: unknown): string {
  if (typeof issue === 'string') return issue;
  if (issue !== null && typeof issue === 'object') {
    const { path, message } = issue as { path?: unknown; message?: unknown };
    const where = Array.isArray(path) && path.length > 0 ? `${path.join('.')}: ` : '';
    if (typeof message === 'string') return `${where}${message}`;
  }
  return JSON.stringify(issue);
}
