# One clipwright node: the HTTP API and a cluster runner (see CONTRACT.md for the environment).
FROM node:20-bookworm-slim

WORKDIR /app

# npm ci brings everything the node needs, ffmpeg and fonts included (prebuilt packages; no compiler needed).
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund && npm cache clean --force

COPY . .
# Compiled once into dist/: less memory and faster answers than loading TypeScript at run time. The PGlite template
# spares the first start its initdb (about 6-12 s).
RUN npm run build && node scripts/pglite-template.mjs

# Embedded database (when DATABASE_URL is unset), stored files and the email outbox live here.
RUN mkdir -p /data && chown node:node /data
ENV DATA_DIR=/data \
    PORT=8080 \
    RUNNER_PORT=34431
VOLUME ["/data"]
USER node

EXPOSE 8080 34431

HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/health`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]

# The heap flags: see README "Memory" (fewer, cheaper collections under load; the heap kept near its live size).
CMD ["node", "--max-semi-space-size=64", "--max-old-space-size=384", "dist/src/main.js"]
