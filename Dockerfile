# syntax=docker/dockerfile:1
# The hook server image. deploy/base/deployment.yaml runs it as `node dist/hooks/cli/main.js serve`
# with UID 10001 and a read-only root filesystem; OpenShift runs it with a UID of its own
# choosing (group 0), which works because nothing here is writable or owned by one user.
#   docker build -t registry.example.com/modelhooks:0.2.0 .

# Node 26, the Active LTS since 2026-10-28 (maintained to April 2029); package.json `engines`
# claims the majors CI runs: 20 (the whole suite) and 20, 22, 24 and 26 (test/image/smoke.sh
# installs and serves what this image copies on each).
FROM node:26-alpine AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci
COPY tsconfig.json tsconfig.build.json ./
COPY hooks ./hooks
RUN npm run build

FROM node:26-alpine AS runtime
LABEL org.opencontainers.image.title="modelhooks" \
      org.opencontainers.image.description="Metacontroller hooks for ML-serving custom resources" \
      org.opencontainers.image.licenses="Apache-2.0"
# Compositions of your own: every .js module at the top of /compositions is served beside the
# built-in ones (`modelhooks init` writes a Dockerfile FROM this image that copies them there).
# /node_modules/modelhooks and /node_modules/zod make `modelhooks/kit` and `zod` resolve from
# /compositions to this server's own copies (one zod, one kit).
ENV NODE_ENV=production MODELHOOKS_COMPOSITIONS_DIR=/compositions
WORKDIR /app
COPY package.json package-lock.json ./
# No install scripts: the runtime dependencies need none, and it keeps the layer to the lockfile.
RUN npm ci --omit=dev --ignore-scripts && npm cache clean --force \
 && mkdir -p /compositions /node_modules && ln -s /app /node_modules/modelhooks && ln -s /app/node_modules/zod /node_modules/zod
COPY --from=build /app/dist ./dist
# Numeric, so that the kubelet can check runAsNonRoot without an /etc/passwd entry.
USER 10001
# 8080: the hooks (HTTPS with MODELHOOKS_TLS_CERT_FILE); MODELHOOKS_METRICS_PORT, when set,
# serves /metrics, /healthz and /readyz in plain HTTP.
EXPOSE 8080
# The Deployment's preStop hook runs `sleep` (busybox, in this base image).
ENTRYPOINT ["node", "dist/hooks/cli/main.js"]
CMD ["serve"]
