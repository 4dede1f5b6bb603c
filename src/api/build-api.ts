import { randomBytes } from 'node:crypto';
import Fastify from 'fastify';
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { textLogStream } from '../metrics/index.js';
import { API_DEFAULTS, type Api, type ApiOptions } from './options.js';
import { authentication } from './plugins/authentication.js';
import { errorAnswers, frameworkErrors } from './plugins/errors.js';
import { idempotency } from './plugins/idempotency.js';
import { requestMetrics } from './plugins/metrics.js';
import { openApi } from './plugins/openapi.js';
import { rateLimit } from './plugins/rate-limit.js';
import { uiPage } from './plugins/ui-page.js';
import { registerRoutes } from './routes/index.js';

// A request id not given is this process's random prefix and a counter: unique across restarts
// and processes, and cheaper than a UUID per request.
const processPrefix = randomBytes(6).toString('hex');
let requests = 0;
const nextRequestId = () => `${processPrefix}-${(++requests).toString(36)}`;

function logDestination(logger: ApiOptions['logger']) {
  const given = typeof logger === 'object' ? logger : {};
  if (given.format === 'text') return { stream: textLogStream(given.stream ?? process.stdout) };
  return given.stream ? { stream: given.stream } : {};
}

/**
 * The HTTP API as a Fastify instance, not listening: tests and `evalflow api` listen on it. Its
 * routes' schemas are zod, the one source of validation, types and the OpenAPI document; each
 * concern around them is a plugin of its own (`plugins/`), registered here in the order a
 * request meets them.
 */
export async function buildApi(options: ApiOptions): Promise<Api> {
  const now = options.now ?? (() => new Date());
  const api = Fastify({
    logger:
      options.logger === false
        ? false
        : {
            redact: ['req.headers.authorization', 'req.headers["idempotency-key"]'],
            ...logDestination(options.logger),
          },
    bodyLimit: options.bodyLimitBytes ?? API_DEFAULTS.bodyLimitBytes,
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && /^[\w.-]{1,64}$/.test(given) ? given : nextRequestId();
    },
    frameworkErrors,
  }).withTypeProvider<ZodTypeProvider>();
  api.setValidatorCompiler(validatorCompiler);
  api.setSerializerCompiler(serializerCompiler);
  if (options.metrics !== undefined)
    await api.register(requestMetrics, { observer: options.metrics });
  await api.register(openApi);
  await api.register(authentication, { store: options.store, now });
  await api.register(rateLimit, {
    perMinute: options.rateLimitPerMinute ?? API_DEFAULTS.rateLimitPerMinute,
  });
  await api.register(idempotency, { store: options.store });
  await api.register(errorAnswers);
  await api.register(uiPage, options.uiRoot !== undefined ? { root: options.uiRoot } : {});
  registerRoutes(api, { ...options, now });
  return api;
}
