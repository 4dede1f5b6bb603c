import type { ApiProcess } from '../../processes/index.js';
import { UI_PATH } from '../../wire/page.js';
import { CLI_INVOCATION } from './invocation.js';

// The line `evalflow start`, `evalflow api` and the demo print about the reviewers' page: where
// it is and how a reviewer signs in, or why it cannot be served.

export function pageLine(api: Pick<ApiProcess, 'url' | 'pageProblem'>): string {
  if (api.pageProblem !== null) return `evalflow: ${api.pageProblem}`;
  return `evalflow: reviewers' page at ${api.url}${UI_PATH} (sign-in links: ${CLI_INVOCATION} reviewers link --workspace W --reviewer ID)`;
}
