import Fastify from 'fastify';
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineRoutes } from '../../src/api/contracts/contract.js';
import { refusalResponses } from '../../src/api/errors.js';
import type { Api, RouteDeps } from '../../src/api/options.js';
import { errorAnswers } from '../../src/api/plugins/errors.js';
import { bindRoutes } from '../../src/api/routes/bind-routes.js';

// A route of the table is registered from its contract alone: its method, path, access, schemas,
// success status and answers (the refusals added to a keyed route's), on a bare Fastify
// instance; and a contract left without a handler does not compile.

const routes = defineRoutes({
  plant: {
    method: 'PUT',
    path: '/v1/plants/:plantId',
    allow: ['system', 'admin'],
    tags: ['plants'],
    summary: 'Plant one',
    params: z.object({ plantId: z.string().min(1) }),
    query: z.object({ deep: z.stringbool().default(false) }),
    body: z.strictObject({ kind: z.string() }),
    answers: { 201: z.object({ plantId: z.string(), kind: z.string(), deep: z.boolean() }) },
  },
  alive: {
    method: 'GET',
    path: '/alive',
    allow: 'public',
    tags: ['plants'],
    summary: 'Up',
    answers: { 200: z.object({ up: z.boolean() }), 503: z.object({ up: z.boolean() }) },
  },
});

async function served() {
  const api = Fastify({ logger: false }).withTypeProvider<ZodTypeProvider>();
  api.setValidatorCompiler(validatorCompiler);
  api.setSerializerCompiler(serializerCompiler);
  await api.register(errorAnswers);
  const registered: { url: string; config: unknown; schema: Record<string, unknown> }[] = [];
  api.addHook('onRoute', (route) => {
    registered.push({
      url: route.url,
      config: route.config,
      schema: route.schema as Record<string, unknown>,
    });
  });
  let down = false;
  bindRoutes(routes, {
    plant: async ({ params, query, body }) => ({
      plantId: params.plantId,
      deep: query.deep,
      ...body,
    }),
    alive: async ({ reply }) => {
      if (down) reply.code(503);
      return { up: !down };
    },
  })(api as unknown as Api, {} as RouteDeps);
  await api.ready();
  return { api, registered, goDown: () => (down = true) };
}

describe('bindRoutes', () => {
  it('registers each contract with its access, schemas and answers, refusals added to a keyed one', async () => {
    const { registered } = await served();
    const plant = registered.find((route) => route.url === '/v1/plants/:plantId');
    const alive = registered.find((route) => route.url === '/alive');
    expect(plant?.config).toEqual({ allow: ['system', 'admin'] });
    expect(plant?.schema).toMatchObject({
      tags: ['plants'],
      summary: 'Plant one',
      params: routes.plant.params,
      querystring: routes.plant.query,
      body: routes.plant.body,
    });
    expect(Object.keys(plant?.schema.response as object).map(Number)).toEqual(
      [201, ...Object.keys(refusalResponses).map(Number)].sort((a, b) => a - b),
    );
    expect(alive?.config).toEqual({ public: true });
    expect(alive?.schema).toMatchObject({ security: [] });
    expect(Object.keys(alive?.schema.response as object)).toEqual(['200', '503']);
  });

  it('answers with the success status, validating params, query and body by the contract', async () => {
    const { api } = await served();
    const planted = await api.inject({
      method: 'PUT',
      url: '/v1/plants/fern?deep=true',
      payload: { kind: 'shade' },
    });
    expect(planted.statusCode).toBe(201);
    expect(planted.json()).toEqual({ plantId: 'fern', kind: 'shade', deep: true });
    const unknownField = await api.inject({
      method: 'PUT',
      url: '/v1/plants/fern',
      payload: { kind: 'shade', colour: 'green' },
    });
    expect(unknownField.statusCode).toBe(422);
    expect(unknownField.json()).toMatchObject({ type: 'validation_failed' });
  });

  it("lets a handler answer another of its contract's answers", async () => {
    const { api, goDown } = await served();
    expect((await api.inject({ url: '/alive' })).statusCode).toBe(200);
    goDown();
    const down = await api.inject({ url: '/alive' });
    expect(down.statusCode).toBe(503);
    expect(down.json()).toEqual({ up: false });
  });

  it('does not compile a table with a contract left without its handler', () => {
    // @ts-expect-error: `alive` has no handler
    const register = bindRoutes(routes, {
      plant: async () => ({ plantId: '', kind: '', deep: false }),
    });
    expect(typeof register).toBe('function');
  });
});
