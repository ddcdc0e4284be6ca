# The shop server as an image: build once, run plain node as a non-root user.
# Several replicas need PostgreSQL (DATABASE_URL), S3-compatible storage (S3_*) and one SECRET_KEY;
# compose.yaml runs that, and README "Deploy" explains it.

# Node 22 LTS: within package.json's engines, and what the AWS SDK supports after January 2027.
ARG NODE_IMAGE=node:22-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci
COPY . .
# dist/web (the SPA) and dist/server/main.js (the server bundle).
RUN npm run build
# Only what the running server imports: the bundle keeps packages as imports.
RUN npm prune --omit=dev

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=5000 \
    DATA_DIR=/app/data
WORKDIR /app
COPY --from=build --chown=node:node /app/package.json /app/package-lock.json ./
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/dist ./dist
# Migrations are applied by the server at start (one instance at a time: an advisory lock).
COPY --from=build --chown=node:node /app/drizzle ./drizzle
# The bot's texts, one Fluent file per language (server/shop/languages/translator.ts reads them at start).
COPY --from=build --chown=node:node /app/server/telegram/locales ./server/telegram/locales
RUN mkdir -p /app/data && chown node:node /app/data
USER node
EXPOSE 5000
# fetch is built into node: no curl in the image.
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 5000) + '/api/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# node itself as the main process: it gets SIGTERM and shuts down cleanly (server/main.ts).
CMD ["node", "dist/server/main.js"]
