// The API's routes as its own OpenAPI document lists them, so a route added later is fuzzed and
// tried at every boundary without anyone listing it here.

export interface OpenApiDocument {
  paths: Record<
    string,
    Record<string, { security?: unknown[]; responses?: Record<string, unknown> }>
  >;
}

export interface Route {
  method: string;
  /** The templated path, `/v1/runs/{runId}`. */
  path: string;
  /** Whether it takes no credential (`security: []`). */
  public: boolean;
  /** The statuses it documents. */
  statuses: Set<number>;
  /** Matches a concrete path of this route. */
  pattern: RegExp;
}

export function routesOf(document: OpenApiDocument): Route[] {
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({
      method: method.toUpperCase(),
      path,
      public: Array.isArray(operation.security) && operation.security.length === 0,
      statuses: new Set(Object.keys(operation.responses ?? {}).map(Number)),
      pattern: new RegExp(
        `^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`,
      ),
    })),
  );
}

/** The route a request is for, by method and concrete path (its query left off). */
export function routeFor(routes: Route[], method: string, url: string): Route | undefined {
  const path = url.split('?')[0] ?? url;
  return routes.find((route) => route.method === method && route.pattern.test(path));
}

export async function fetchDocument(url: string): Promise<OpenApiDocument> {
  const response = await fetch(`${url}/openapi.json`);
  if (response.status !== 200) throw new Error(`GET /openapi.json answered ${response.status}`);
  return (await response.json()) as OpenApiDocument;
}
