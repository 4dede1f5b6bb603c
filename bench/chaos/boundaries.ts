import { type PrincipalKeys, principalKeys, wrongCredentials } from './credentials.js';
import type { Deployment } from './deployment.js';
import { fetchDocument, type Route, routesOf } from './openapi-routes.js';

// Scenario 8: every route in the API's OpenAPI document (so a new route is tried too) with no
// key, a revoked key, an expired user token, an evaluator key, a user token, and another
// workspace's key; and one user's token on another user's rating. Each must be refused with a
// status the route documents, store nothing, and show nothing of the workspace.

export interface BoundaryFigures {
  attempts: number;
  breaches: string[];
  routes: number;
}

// What a user token and an evaluator key may do; every other route must refuse them, so a new
// route that lets them in shows up here as a breach until it is listed.
const userRoutes = new Set([
  'PUT /v1/threads/{threadId}/messages/{messageId}/rating',
  'DELETE /v1/threads/{threadId}/messages/{messageId}/rating',
  'GET /v1/threads/{threadId}/conversation',
]);
const evaluatorRoutes = new Set(['POST /v1/feedback']);
// Routes whose path names a principal of the caller's own workspace, not a stored entity of this
// one: a reviewer's sign-in token is issued for the workspace of the key that asks, so another
// workspace's key may have one for a reviewer of the same name, good there only.
const namesOwnPrincipal = new Set(['POST /v1/reviewers/{reviewerId}/sign-in']);
const routeName = (route: Route) => `${route.method} ${route.path}`;

// Text only the workspace's own stored entities carry: an answer to a stranger that holds it leaks.
const SECRET = 'boundary-secret-7c1f';
const ids: Record<string, string> = {
  threadId: 'bt-thread',
  runId: 'bt-run',
  messageId: 'bt-msg',
  artifactId: 'bt-doc',
  evaluator: 'answer_length@1',
  configId: 'helpfulness.helpful',
  id: 'bt-batch',
};
const concrete = (path: string) =>
  path.replace(/\{([^}]+)\}/g, (_, name: string) => ids[name] ?? 'bt-unknown');

// Valid bodies, so a stranger's request reaches the lookup and is not refused for its shape
// alone; a route not listed gets `{}`.
const bodies: Record<string, unknown> = {
  'POST /v1/user-tokens': { userId: 'mallory' },
  'POST /v1/threads': { threadId: 'bt-new' },
  'POST /v1/threads/{threadId}/runs': { runId: 'bt-new-run' },
  'POST /v1/runs/{runId}/end': { status: 'completed' },
  'POST /v1/threads/{threadId}/messages': { role: 'ROLE_USER', content: 'hi' },
  'PUT /v1/artifacts/{artifactId}': { kind: 'report' },
  'POST /v1/feedback': {
    feedbackType: 'helpfulness',
    target: { kind: 'message', threadId: 'bt-thread', messageId: 'bt-msg' },
    value: { helpful: false },
  },
  'PUT /v1/threads/{threadId}/messages/{messageId}/rating': {
    feedbackType: 'helpfulness',
    value: { helpful: false },
  },
  'POST /v1/reviews': {
    action: 'submit',
    target: { kind: 'turn', runId: 'bt-run' },
    feedbackType: 'helpfulness',
    value: { helpful: false },
  },
  'PUT /v1/evaluation-rules/{evaluator}': { targets: ['message'] },
  'POST /v1/reevaluations': { selector: { kind: 'report' }, evaluators: ['answer_length@1'] },
  'POST /v1/scores': { traceId: 'bt-trace', name: 'bt', value: 1 },
  'POST /v1/score-configs': { name: 'bt', dataType: 'NUMERIC' },
  'PATCH /v1/score-configs/{configId}': { isArchived: true },
};
const query: Record<string, string> = {
  'DELETE /v1/threads/{threadId}/messages/{messageId}/rating': '?feedbackType=helpfulness',
};

interface Answer {
  status: number;
  text: string;
  /** An event stream, which answers 200 for any thread (empty for one it does not have). */
  stream?: boolean;
}

async function call(url: string, route: Route, key: string | undefined): Promise<Answer> {
  const name = `${route.method} ${route.path}`;
  const writes = ['POST', 'PUT', 'PATCH'].includes(route.method);
  const controller = new AbortController();
  const response = await fetch(`${url}${concrete(route.path)}${query[name] ?? ''}`, {
    method: route.method,
    headers: {
      ...(key ? { authorization: `Bearer ${key}` } : {}),
      ...(writes ? { 'content-type': 'application/json' } : {}),
    },
    ...(writes ? { body: JSON.stringify(bodies[name] ?? {}) } : {}),
    signal: controller.signal,
  });
  // An event stream that was let in never ends: what it sends in its first half second will do.
  if (response.headers.get('content-type')?.startsWith('text/event-stream')) {
    let text = '';
    const timer = setTimeout(() => controller.abort(), 500);
    try {
      for await (const chunk of response.body ?? []) text += new TextDecoder().decode(chunk);
    } catch {
      // Aborted, as planned.
    }
    clearTimeout(timer);
    return { status: response.status, text, stream: true };
  }
  return { status: response.status, text: await response.text() };
}

/** The workspace the boundaries guard: a thread, a run, an assistant message ada rated, an artifact. */
async function seed(url: string, keys: PrincipalKeys) {
  const send = async (method: string, path: string, key: string, body: unknown) => {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (response.status >= 300) {
      throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
    }
  };
  await send('POST', '/v1/threads', keys.agent, { threadId: 'bt-thread', title: SECRET });
  await send('POST', '/v1/threads/bt-thread/runs', keys.agent, { runId: 'bt-run' });
  await send('POST', '/v1/threads/bt-thread/messages', keys.agent, {
    messageId: 'bt-msg',
    role: 'ROLE_ASSISTANT',
    content: `the answer ${SECRET}`,
    runId: 'bt-run',
  });
  await send('PUT', '/v1/artifacts/bt-doc', keys.system, { kind: 'report', data: SECRET });
  await send('PUT', '/v1/threads/bt-thread/messages/bt-msg/rating', keys.user, {
    feedbackType: 'helpfulness',
    value: { helpful: true },
  });
}

/** Ada's ratings as stored, as a comparable line. */
async function adasRatings(deployment: Deployment): Promise<string> {
  const records = await deployment.store.feedback('ws', { thread_id: 'bt-thread' });
  return JSON.stringify(
    records
      .filter((record) => record.actor.kind === 'user' && record.actor.id === 'ada')
      .map((record) => [record.id, record.value, record.updated_seq]),
  );
}

export async function tryEveryBoundary(deployment: Deployment): Promise<BoundaryFigures> {
  const routes = routesOf(await fetchDocument(deployment.url)).filter((route) => !route.public);
  const keys = await principalKeys(deployment);
  await seed(deployment.url, keys);
  const wrong = await wrongCredentials(deployment);
  const breaches: string[] = [];
  let attempts = 0;

  const refusedAll = async (label: string, key: string | undefined, status: number) => {
    for (const route of routes) {
      const name = `${route.method} ${route.path}`;
      if (label === 'user token' && userRoutes.has(name)) continue;
      if (label === 'evaluator key' && evaluatorRoutes.has(name)) continue;
      attempts += 1;
      const answer = await call(deployment.url, route, key);
      if (answer.status !== status || !route.statuses.has(status)) {
        breaches.push(`${label}: ${name} answered ${answer.status}, not ${status}`);
      }
      if (answer.text.includes(SECRET)) breaches.push(`${label}: ${name} showed the workspace`);
    }
  };
  const before = deployment.snapshot();
  await refusedAll('no key', undefined, 401);
  await refusedAll('revoked key', wrong.revoked, 401);
  await refusedAll('expired user token', wrong.expired, 401);
  await refusedAll('evaluator key', keys.evaluator, 403);
  await refusedAll('user token', keys.user, 403);
  const after = deployment.snapshot();
  if (after !== before) breaches.push(`refused requests stored something: ${before} -> ${after}`);

  // Another workspace's system key works in its own workspace; here it must find nothing. The
  // routes naming an entity go first, before its own writes could make one of the same id there.
  const head = await deployment.store.head('ws');
  const namesAnEntity = (route: Route) =>
    route.path.includes('{') && route.method !== 'PUT' && !namesOwnPrincipal.has(routeName(route));
  const entitiesFirst = [...routes].sort(
    (a, b) => Number(namesAnEntity(b)) - Number(namesAnEntity(a)),
  );
  for (const route of entitiesFirst) {
    const name = `${route.method} ${route.path}`;
    attempts += 1;
    const answer = await call(deployment.url, route, wrong.stranger);
    if (!route.statuses.has(answer.status)) {
      breaches.push(`another workspace: ${name} answered ${answer.status}, undocumented`);
    } else if (namesAnEntity(route) && answer.status < 400 && !answer.stream) {
      breaches.push(
        `another workspace: ${name} answered ${answer.status} for this workspace's entity`,
      );
    }
    if (answer.text.includes(SECRET))
      breaches.push(`another workspace: ${name} showed the workspace`);
  }
  if ((await deployment.store.head('ws')) !== head) {
    breaches.push("another workspace's key changed this workspace's log");
  }

  // Bob may rate the message himself; ada's rating stays as she left it.
  const ratings = await adasRatings(deployment);
  const rating = routes.filter((route) => route.path.endsWith('/rating'));
  for (const route of rating) {
    attempts += 1;
    const answer = await call(deployment.url, route, keys.otherUser);
    if (answer.status >= 500)
      breaches.push(`another user: ${route.method} rating answered ${answer.status}`);
  }
  if ((await adasRatings(deployment)) !== ratings) {
    breaches.push("another user's token changed ada's rating");
  }
  return { attempts, breaches, routes: routes.length };
}
