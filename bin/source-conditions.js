// A module resolution hook (node:module `register`) for bin/evalflow.js in a checkout: every
// import resolves with package.json's `evalflow-source` condition, so `evalflow/...` is src/.
export async function resolve(specifier, context, nextResolve) {
  return nextResolve(specifier, {
    ...context,
    conditions: [...context.conditions, 'evalflow-source'],
  });
}
