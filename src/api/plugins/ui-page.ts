import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { UI_PATH } from '../../wire/page.js';
import { httpOnly } from '../errors.js';
import { favicon } from './favicon.js';

// The reviewers' page (src/ui, built into dist/ui by `npm run build:ui`) at /ui/: static files
// anyone may fetch, since the page holds no secret. It signs in with a token from its URL's
// fragment and sends it as a Bearer header to the API's routes, which check it there. Every
// answer under /ui carries a strict Content-Security-Policy (scripts and styles from this origin
// only, no inline script, no framing, no strings into HTML sinks), so a message, an artifact or
// an instruction that holds markup can never run, even if the page rendered it wrongly. Its icon
// is /favicon.ico (favicon.ts), served here too.

/** The built page in this package: dist/ui beside src/ and dist/ (the same from both). */
export const DEFAULT_UI_ROOT = fileURLToPath(new URL('../../../dist/ui/', import.meta.url));

export const UI_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "require-trusted-types-for 'script'",
  "trusted-types 'none'",
].join('; ');

const SECURITY_HEADERS = {
  'content-security-policy': UI_CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
};

export interface UiPageOptions {
  /** The folder of the built page (default: this package's dist/ui). */
  root?: string;
}

/** Why the page cannot be served from `root`, or null when it can. */
export function uiBuildProblem(root: string = DEFAULT_UI_ROOT): string | null {
  return existsSync(join(root, 'index.html'))
    ? null
    : `the reviewers' page is not built in ${root}: run npm run build:ui (npm install runs it in a checkout)`;
}

/** The page at /ui/ (an encapsulated plugin: its hooks touch its own routes only). */
export async function uiPage(api: FastifyInstance, options: UiPageOptions): Promise<void> {
  const root = options.root ?? DEFAULT_UI_ROOT;
  api.addHook('onRoute', (route) => {
    route.config = { ...route.config, public: true };
  });
  api.addHook('onRequest', async (_request, reply) => {
    reply.headers(SECURITY_HEADERS);
  });
  // The page's icon, and the one a browser asks any page of the API for.
  await favicon(api);
  const problem = uiBuildProblem(root);
  if (problem !== null) {
    api.log.warn(problem);
    const unbuilt = async () => {
      throw httpOnly('unavailable', problem);
    };
    api.get('/ui', { schema: { hide: true } }, unbuilt);
    api.get('/ui/*', { schema: { hide: true } }, unbuilt);
    return;
  }
  await api.register(fastifyStatic, {
    root,
    // Without its slash, so that /ui is a route of its own: a redirect to /ui/.
    prefix: UI_PATH.slice(0, -1),
    redirect: true,
    index: ['index.html'],
    // Nothing but the built files: no listing, no dotfiles, no guessing of extensions.
    list: false,
    dotfiles: 'deny',
    cacheControl: false,
    decorateReply: false,
    setHeaders: (reply, path) => {
      // The built assets' names carry their content's hash; the page's one HTML file does not.
      const hashed = path.startsWith(join(root, 'assets'));
      reply.header('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
}
