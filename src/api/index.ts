// The HTTP API (`evalflow api`, and beside the worker in `evalflow start`): every capability over
// HTTP with per-workspace keys, following docs/specification.md.

export { buildApi } from './build-api.js';
export { type IssuedCredential, issueCredential, type VerifiedCaller } from './credentials.js';
export { HTTP_ONLY, HTTP_STATUS, RejectionBody } from './errors.js';
export { API_DEFAULTS, type Api, type ApiOptions } from './options.js';
export { UI_PATH, uiBuildProblem } from './plugins/ui-page.js';
export { PRINCIPAL_FORMS, type Principal, parsePrincipal, principalText } from './principals.js';
export { type ApiProcess, type ApiProcessOptions, startApi } from './start-api.js';
