// The processes evalflow runs, as the command line hosts them: the API alone (`evalflow api`),
// or the engine and the API in one process sharing its store (`evalflow start`, the demo). The
// CLI starts servers through here and reads the API's shapes from `wire`, never from `api`.

export { type ApiProcess, type ApiProcessOptions, startApi } from '../api/index.js';
export { type EngineWithApi, startEngineWithApi } from './engine-with-api.js';
