import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import fastifyPlugin from 'fastify-plugin';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';

// The OpenAPI document, written from the routes' zod schemas (`/openapi.json`), and its pages
// (`/docs`). Each operation is named after its method and path (`postThreadsThreadIdRuns`), so
// clients generated from the document get stable names.

export const openApi = fastifyPlugin(
  async (api) => {
    api.addHook('onRoute', (route) => {
      if (route.schema && !route.schema.operationId) {
        route.schema.operationId = operationIdOf(String(route.method), route.url);
      }
    });
    await api.register(fastifySwagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'evalflow',
          version: '1',
          description:
            'Agent runs, typed feedback and evaluator verdicts, mirrored into Langfuse as scores.',
        },
        components: {
          securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
        },
        security: [{ bearer: [] }],
      },
      transform: jsonSchemaTransform,
      // Schemas used by several routes become components, which this puts into the document.
      transformObject: jsonSchemaTransformObject,
    });
    await api.register(fastifySwaggerUi, { routePrefix: '/docs' });
  },
  { name: 'evalflow-openapi' },
);

/** `POST /v1/threads/:threadId/runs` → `postThreadsThreadIdRuns`. */
export function operationIdOf(method: string, url: string): string {
  const words = url.split('/').filter((part) => part !== '' && part !== 'v1');
  const name = words.map((w) => w.replace(/^:/, '').replace(/-(\w)/g, (_, c) => c.toUpperCase()));
  return [method.toLowerCase(), ...name.map((w) => w[0]?.toUpperCase() + w.slice(1))].join('');
}
