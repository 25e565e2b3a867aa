import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { RequestListener, Server, ServerOptions } from 'node:http';
import type { Express } from 'express';
import type { Logger } from 'pino';
import type { ServerConfig } from './config.js';
import { type ConnectionCounts, manageConnections } from './connections.js';
import { ConfigError } from './errors.js';

/** Set by shutdown(); read by every answer (hooks/server/app.ts). */
export interface ServerState {
  /** Set on SIGTERM: /readyz fails and every answer carries `Connection: close`. */
  draining: boolean;
}

export interface Listeners {
  /** The hook server: HTTPS when MODELHOOKS_TLS_CERT_FILE is set. */
  main: Server;
  /** The plain-HTTP health and metrics server, when MODELHOOKS_METRICS_PORT is set. */
  health?: Server;
  /** The hook server's sockets by state, and those closed to make room (hooks/server/connections.ts). */
  connections(): ConnectionCounts;
  /**
   * Kubernetes-grade shutdown: /readyz fails and answers close their connections for the
   * drain period while everything is still served; then the listeners close, requests in
   * flight finish (closed by force at the shutdown timeout) and the promise resolves.
   */
  shutdown(): Promise<void>;
}

/** Starts the servers; resolves once every one is listening. */
export async function listen(
  app: RequestListener,
  healthApp: RequestListener | undefined,
  config: ServerConfig,
  logger: Logger,
  state: ServerState,
  /** How often the TLS files are re-read (tests shorten it). */
  reloadMs = 5000,
): Promise<Listeners> {
  const stopWatching: (() => void)[] = [];
  const main = config.tls ? httpsServer(app, config, logger, stopWatching, reloadMs) : http.createServer({ ...serverOptions, ...expressObjects(app) }, app);
  const connections = limit(main, config, config.tls !== undefined);
  const health = healthApp && config.metricsPort ? http.createServer({ ...serverOptions, ...expressObjects(healthApp) }, healthApp) : undefined;
  const healthConnections = health ? limit(health, config, false) : undefined;
  // MODELHOOKS_WEBHOOK_PORT: the pod webhook alone (app.ts app.locals.podWebhook), HTTPS without a client certificate.
  const webhookApp = (app as Partial<Express>).locals?.podWebhook as RequestListener | undefined;
  const webhook =
    config.webhookPort && config.tls && webhookApp
      ? httpsServer(webhookApp, { ...config, tls: { certFile: config.tls.certFile, keyFile: config.tls.keyFile } }, logger, stopWatching, reloadMs)
      : undefined;
  const webhookConnections = webhook ? limit(webhook, { ...config, tls: undefined }, true) : undefined;
  await Promise.all([
    bind(main, config.port, config.host),
    ...(health ? [bind(health, config.metricsPort, config.host)] : []),
    ...(webhook ? [bind(webhook, config.webhookPort, config.host)] : []),
  ]);

  let stopping: Promise<void> | undefined;
  const shutdown = () =>
    (stopping ??= (async () => {
      state.draining = true;
      logger.info({ drainSeconds: config.drainSeconds }, 'draining: /readyz fails, answers close their connections');
      await new Promise((resolve) => setTimeout(resolve, config.drainSeconds * 1000));
      logger.info('closing the listeners; finishing requests in flight');
      for (const stop of stopWatching) stop();
      const force = setTimeout(() => {
        logger.warn({ timeoutSeconds: config.shutdownTimeoutSeconds }, 'requests still in flight at the shutdown timeout; closing them');
        main.closeAllConnections();
        health?.closeAllConnections();
        connections.closeAll();
        healthConnections?.closeAll();
        webhook?.closeAllConnections();
        webhookConnections?.closeAll();
      }, config.shutdownTimeoutSeconds * 1000);
      force.unref();
      // close() stops accepting and closes idle keep-alive connections; busy ones finish first.
      // Sockets that never got to a request (a handshake, a silent plain socket) are closed too.
      connections.closeUnproven();
      healthConnections?.closeUnproven();
      webhookConnections?.closeUnproven();
      await Promise.all(
        [main, ...(health ? [health] : []), ...(webhook ? [webhook] : [])].map((s) => new Promise<void>((resolve) => s.close(() => resolve()))),
      );
      clearTimeout(force);
      logger.info('stopped');
    })());
  return { main, ...(health ? { health } : {}), connections: connections.counts, shutdown };
}

/** Node checks request and header timeouts on this interval (30 s by default: too coarse). */
const serverOptions = { connectionsCheckingInterval: 1000 };

type ExpressObjects = Pick<ServerOptions, 'IncomingMessage' | 'ServerResponse'>;

const objectsOfApp = new WeakMap<object, ExpressObjects>();

/**
 * `http.createServer` / `https.createServer` options that make each request and response an
 * instance of a subclass of node's whose prototype is the express app's `app.request` /
 * `app.response`, so express's per-request `Object.setPrototypeOf` finds it in place: on
 * objects node has just made it doubled the server's CPU on the cached paths. Subclasses, not
 * constructor functions that call node's: V8 lays such objects out as node's own, while a
 * function that calls `http.ServerResponse` made every response a dictionary-mode object (a
 * hash lookup for each of node's property accesses) and cost 20–30 % on the cached paths
 * (docs/development.md, "express"). The first call for an app makes the subclasses and puts
 * their prototypes in the app's `request` and `response`; those keep the own properties of
 * express's (`app`) and inherit what they inherited, so mounting and `app.request.x = …` work
 * as in any express app. Empty for a listener that is not an express app.
 */
export function expressObjects(app: RequestListener): ExpressObjects {
  const made = objectsOfApp.get(app);
  if (made) return made;
  const express = app as Partial<Express>;
  const { request, response } = express;
  if (request === undefined || response === undefined) return {};
  class Request extends http.IncomingMessage {}
  class Response extends http.ServerResponse {}
  express.request = inPlaceOf(request, Request.prototype);
  express.response = inPlaceOf(response, Response.prototype);
  const objects = { IncomingMessage: Request, ServerResponse: Response as typeof http.ServerResponse };
  objectsOfApp.set(app, objects);
  return objects;
}

/** `prototype` takes the place of `current`: its own properties and its prototype. */
function inPlaceOf<T extends object>(current: T, prototype: object): T {
  Object.defineProperties(prototype, Object.getOwnPropertyDescriptors(current));
  Object.setPrototypeOf(prototype, Object.getPrototypeOf(current));
  return prototype as T;
}

/**
 * A timeout on every phase of a connection: the TLS handshake, the first request's arrival,
 * its headers, its body, the idle time between requests; and slots shared so that sockets
 * that prove nothing cannot keep the others out (hooks/server/connections.ts).
 */
function limit(server: Server, config: ServerConfig, tls: boolean) {
  server.requestTimeout = config.requestTimeoutSeconds * 1000;
  server.headersTimeout = config.headersTimeoutSeconds * 1000;
  server.keepAliveTimeout = config.keepAliveTimeoutSeconds * 1000;
  return manageConnections(
    server,
    {
      maxConnections: config.maxConnections,
      maxPending: config.maxPendingConnections,
      unprovenMs: (tls ? config.handshakeTimeoutSeconds : config.headersTimeoutSeconds) * 1000,
      firstRequestMs: config.headersTimeoutSeconds * 1000,
    },
    tls,
    tls && config.tls?.clientCaFile !== undefined,
  );
}

function bind(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.once('listening', () => {
      server.off('error', reject);
      resolve();
    });
    if (host) server.listen(port, host);
    else server.listen(port);
  });
}

type TlsFiles = NonNullable<ServerConfig['tls']>;

const sameBuffer = (a: Buffer | undefined, b: Buffer | undefined) => (a && b ? a.equals(b) : a === b);

function secureContext(tls: TlsFiles): { cert: Buffer; key: Buffer; ca?: Buffer } {
  const read = (file: string, variable: string) => {
    try {
      return readFileSync(file);
    } catch (err) {
      throw new ConfigError(`invalid configuration: ${variable}: cannot read ${file} (${(err as NodeJS.ErrnoException).code})`);
    }
  };
  return {
    cert: read(tls.certFile, 'MODELHOOKS_TLS_CERT_FILE'),
    key: read(tls.keyFile, 'MODELHOOKS_TLS_KEY_FILE'),
    ...(tls.clientCaFile ? { ca: read(tls.clientCaFile, 'MODELHOOKS_CLIENT_CA_FILE') } : {}),
  };
}

/**
 * HTTPS; with a client CA, a client without a certificate it signed is refused in the
 * handshake. The files are re-read every 5 s and used when they change (cert-manager
 * renews a certificate in place).
 */
function httpsServer(app: RequestListener, config: ServerConfig, logger: Logger, stopWatching: (() => void)[], reloadMs: number): Server {
  const tls = config.tls as TlsFiles;
  const server = https.createServer(
    {
      ...serverOptions,
      ...expressObjects(app),
      // Node's default is 120 s: a socket that never finishes its handshake held a slot that long.
      handshakeTimeout: config.handshakeTimeoutSeconds * 1000,
      ...secureContext(tls),
      minVersion: 'TLSv1.2',
      requestCert: tls.clientCaFile !== undefined,
      rejectUnauthorized: tls.clientCaFile !== undefined,
    },
    app,
  );
  // Compared by content, not by time: a Secret volume swaps a symlink and keeps old mtimes.
  let current = secureContext(tls);
  const timer = setInterval(() => {
    try {
      const next = secureContext(tls);
      if (next.cert.equals(current.cert) && next.key.equals(current.key) && sameBuffer(next.ca, current.ca)) return;
      server.setSecureContext({ ...next, minVersion: 'TLSv1.2' });
      current = next;
      logger.info('TLS files reloaded');
    } catch (err) {
      logger.warn({ err }, 'cannot reload the TLS files; keeping the previous ones');
    }
  }, reloadMs);
  timer.unref();
  stopWatching.push(() => clearInterval(timer));
  return server as unknown as Server;
}
