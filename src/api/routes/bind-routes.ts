import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  type AnswerInput,
  type RouteContract,
  type RouteParts,
  successStatus,
} from '../contracts/contract.js';
import { refusalResponses } from '../errors.js';
import type { Api, RouteDeps } from '../options.js';

// Each contract of the route table bound to its handler, and registered with Fastify from the
// contract alone: its method, path, access, schemas and answers (the refusals added to a keyed
// route's), so the registration block is written once, here.

/** What a handler is given: the parts its contract validated, the request and the API's deps. */
export interface RouteCall<C extends RouteContract> extends RouteParts<C> {
  request: FastifyRequest;
  /** The reply, already set to the success status; a handler may set another of its answers. */
  reply: FastifyReply;
  deps: RouteDeps;
}

export type RouteHandler<C extends RouteContract> = (call: RouteCall<C>) => Promise<AnswerInput<C>>;

/** A handler for every contract of a group: one left out does not compile. */
export type RouteHandlers<Contracts extends Record<string, RouteContract>> = {
  [Name in keyof Contracts]: RouteHandler<Contracts[Name]>;
};

/**
 * Registers each contract with its handler, in the contracts' order. The handlers may be made
 * once per API from its deps, when they share something built from them (a workflow client, the
 * open event streams the server ends when it closes).
 */
export function bindRoutes<Contracts extends Record<string, RouteContract>>(
  contracts: Contracts,
  handlers: RouteHandlers<Contracts> | ((deps: RouteDeps, api: Api) => RouteHandlers<Contracts>),
): (api: Api, deps: RouteDeps) => void {
  return (api, deps) => {
    const made = typeof handlers === 'function' ? handlers(deps, api) : handlers;
    // Each handler was checked against its own contract above; here they are all alike.
    const bound = made as unknown as Record<string, RouteHandler<RouteContract>>;
    for (const [name, contract] of Object.entries(contracts)) {
      registerOne(api, deps, contract, bound[name] as RouteHandler<RouteContract>);
    }
  };
}

function registerOne(
  api: Api,
  deps: RouteDeps,
  contract: RouteContract,
  handler: RouteHandler<RouteContract>,
): void {
  const isPublic = contract.allow === 'public';
  const status = successStatus(contract);
  api.route({
    method: contract.method,
    url: contract.path,
    config: contract.allow === 'public' ? { public: true } : { allow: contract.allow },
    schema: {
      tags: [...contract.tags],
      summary: contract.summary,
      ...(contract.description !== undefined ? { description: contract.description } : {}),
      ...(isPublic ? { security: [] } : {}),
      ...(contract.params !== undefined ? { params: contract.params } : {}),
      ...(contract.query !== undefined ? { querystring: contract.query } : {}),
      ...(contract.body !== undefined ? { body: contract.body } : {}),
      // Statuses are integer keys, so the document lists them in order whatever the spread's.
      response: {
        ...(isPublic ? {} : refusalResponses),
        ...contract.answers,
        ...contract.refusals,
      },
    },
    handler: async (request, reply) => {
      reply.code(status);
      const { params, query, body } = request as FastifyRequest & RouteParts<RouteContract>;
      return handler({ params, query, body, request, reply, deps });
    },
  });
}
