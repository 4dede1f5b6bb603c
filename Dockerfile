# The evalflow image: the compiled code on Node 24 (the current LTS), production dependencies only,
# run by an unprivileged user. `docker run IMAGE` serves the HTTP API; `docker run IMAGE worker`
# runs the worker and its trigger relays; any other CLI command works the same way.
FROM node:24.22.3-bookworm-slim AS node
WORKDIR /app

# Compiles src/ to dist/ with the dev dependencies, and builds the reviewers' page into dist/ui
# (Vite). Neither needs a native addon, so install scripts are skipped here.
FROM node AS build
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts
COPY tsconfig.json tsconfig.build.json ./
COPY scripts/build-ui.ts ./scripts/
COPY src ./src
RUN npm run build

# The production dependencies, on the runtime's own Node and Debian, so better-sqlite3's native
# addon matches them. The compilers are for when no prebuilt binary fits; they stay in this stage.
# Scripts are skipped (the package's own `prepare` builds the page, which the build stage did),
# then better-sqlite3's install script is run alone.
FROM node AS dependencies
RUN apt-get update \
  && apt-get install -y --no-install-recommends g++ make python3 \
  && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts
RUN npm rebuild better-sqlite3

FROM node AS runtime
# In a container the API must listen on every interface to be reachable through a published port.
ENV EVALFLOW_API_HOST=0.0.0.0
# package.json: the code is ES modules, and an app definition imports `evalflow` by its name.
COPY package.json ./
COPY --from=dependencies /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY bin ./bin
# The OTLP receiver's protobuf definitions, read at start.
COPY proto ./proto
# Local state (SQLite, the JSONL score files) when no DATABASE_URL or Langfuse is configured.
RUN mkdir .evalflow && chown node:node .evalflow
USER node
EXPOSE 8787
# Ready when the API's store and Temporal answer. Slim images have no curl; Node has fetch.
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.EVALFLOW_API_PORT || 8787) + '/readyz', { signal: AbortSignal.timeout(4000) }).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["node", "bin/evalflow.js"]
CMD ["api"]
