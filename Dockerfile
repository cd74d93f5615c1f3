# The worker and watcher image for docker-compose.yml (the untested-here path; the
# tested one is `npm run up`). Sources run as TypeScript through tsx, as they do
# natively, so there is no build step.
FROM node:20-bookworm-slim

WORKDIR /app

# Dependencies first, so editing a source file does not reinstall them. Dev
# dependencies (vitest, tsc) are not needed to run; tsx is a runtime dependency.
# patches/ goes in with them: npm ci's postinstall applies them to the Temporal SDK and node-fetch.
COPY package.json package-lock.json ./
COPY patches ./patches
RUN npm ci --omit=dev && npm cache clean --force

COPY . .

ENV NODE_ENV=production
# Two malloc arenas instead of glibc's eight per core: less resident memory for the worker's many
# threads (stack/controllers.ts says why, bench/README.md what it saved).
ENV MALLOC_ARENA_MAX=2
USER node

# docker-compose.yml sets the command per service; this default is the worker.
CMD ["node", "--import", "tsx", "worker/main.ts"]
