# One image for api, worker, migrate and the local stand-ins; compose.yaml picks the command.
# test/image.test.ts lays out the final stage's files from the COPY lines below and runs them: keep each
# COPY in the final stage one source and one destination, and add no RUN there.
FROM node:26-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# npm ci's postinstall applies patches/ (patch-package): postgres.js's pool queue bounded (docs/decisions/patched-libraries.md).
COPY patches/ patches/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npx tsx web/build.ts

# Production dependencies only, installed apart from the build so no dev dependency can reach the image.
FROM node:26-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY patches/ patches/
RUN npm ci --omit=dev --no-audit --no-fund

FROM node:26-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/db/migrations ./db/migrations
COPY package.json ./
USER node
EXPOSE 8080
CMD ["node", "--max-semi-space-size=64", "dist/server/api.js"]
