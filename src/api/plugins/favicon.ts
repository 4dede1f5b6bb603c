import type { FastifyInstance } from 'fastify';

// The icon browsers ask every page of the API for (`/favicon.ico`): answered, rather than
// refused as an unsigned request (a 401 in every console). An SVG: a tick in a square, one
// colour, a few hundred bytes, nothing fetched.

export const FAVICON_PATH = '/favicon.ico';

export const FAVICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">' +
  '<rect width="32" height="32" rx="6" fill="#1f5fbf"/>' +
  '<path d="M8 17l5 5 11-12" fill="none" stroke="#fff" stroke-width="4" stroke-linecap="round" stroke-linejoin="round"/>' +
  '</svg>';

/** Serves the icon to anyone (it holds nothing), cached for a day. */
export async function favicon(api: FastifyInstance): Promise<void> {
  api.get(FAVICON_PATH, { config: { public: true }, schema: { hide: true } }, (_request, reply) =>
    reply
      .header('content-type', 'image/svg+xml')
      .header('cache-control', 'public, max-age=86400')
      .send(FAVICON_SVG),
  );
}
