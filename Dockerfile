# The evalflow worker. It runs from the TypeScript sources through tsx, so there is no build stage;
# the full Node image carries the compilers better-sqlite3 needs when no prebuilt binary fits.
FROM node:20-bookworm
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev
COPY bin ./bin
COPY src ./src
COPY tsconfig.json ./
# Local state (SQLite, the JSONL score file) when no DATABASE_URL or Langfuse is configured.
RUN mkdir .evalflow && chown node .evalflow
USER node
CMD ["node", "bin/evalflow.js", "start"]
