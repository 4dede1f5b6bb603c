import { uiBuildProblem } from '../../api/index.js';
import { UI_PATH } from '../../wire/page.js';
import { CLI_INVOCATION } from './invocation.js';

// The line `evalflow start`, `evalflow api` and the demo print about the reviewers' page: where
// it is and how a reviewer signs in, or why it cannot be served.

export function pageLine(apiUrl: string): string {
  const problem = uiBuildProblem();
  if (problem !== null) return `evalflow: ${problem}`;
  return `evalflow: reviewers' page at ${apiUrl}${UI_PATH} (sign-in links: ${CLI_INVOCATION} reviewers link --workspace W --reviewer ID)`;
}
