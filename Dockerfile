# The evalflow worker, from the compiled code: a build stage compiles src/ to dist/ with the dev
# dependencies, and the image keeps only the production ones. The full Node image carries the
# compilers better-sqlite3 needs when no prebuilt binary fits.
FROM node:20-bookworm AS build
WORKDIR /app
COPY package.json package-lock.json ./
# The compiler needs no native addon, so install scripts are skipped here.
RUN npm ci --ignore-scripts
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build

FROM node:20-bookworm
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev
COPY bin ./bin
COPY --from=build /app/dist ./dist
# Local state (SQLite, the JSONL score file) when no DATABASE_URL or Langfuse is configured.
RUN mkdir .evalflow && chown node .evalflow
USER node
CMD ["node", "bin/evalflow.js", "start"]
