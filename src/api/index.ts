// The HTTP API (`evalflow api`, and beside the worker in `evalflow start`): every capability over
// HTTP with per-workspace keys, following docs/specification.md.

export {
  type IssuedCredential,
  issueCredential,
  type VerifiedCaller,
} from '../wire/credentials.js';
export { UI_PATH } from '../wire/page.js';
export {
  PRINCIPAL_FORMS,
  type Principal,
  parsePrincipal,
  principalText,
} from '../wire/principals.js';
export { buildApi } from './build-api.js';
export { HTTP_ONLY, HTTP_STATUS, RejectionBody } from './errors.js';
export { API_DEFAULTS, type Api, type ApiOptions } from './options.js';
export { uiBuildProblem } from './plugins/ui-page.js';
export { type ApiProcess, type ApiProcessOptions, startApi } from './start-api.js';
