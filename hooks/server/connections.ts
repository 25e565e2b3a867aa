/**
 * Who holds the connection slots (MODELHOOKS_MAX_CONNECTIONS). Node's own `maxConnections`
 * refuses the newest connection when the slots are full, so 300 sockets that never finish a
 * TLS handshake (no credentials needed) kept Metacontroller out for the 120 s of Node's
 * handshake timeout. Here every socket is in one of three states, and a new one is let in by
 * closing the oldest socket of the least proven state:
 *
 * - `unproven`: its TLS handshake is not done (HTTPS), or it has sent no request yet (plain
 *   HTTP). At most MODELHOOKS_MAX_PENDING_CONNECTIONS of them (the oldest goes first), each
 *   closed after MODELHOOKS_HANDSHAKE_TIMEOUT_SECONDS (HTTPS; Node's `handshakeTimeout`) or
 *   MODELHOOKS_HEADERS_TIMEOUT_SECONDS (plain HTTP: Node's headers timeout starts with the first
 *   byte, so a socket that sends nothing would stay open for ever).
 * - `idle`: a handshake done (with mutual TLS, a client certificate the CA signed) or a request
 *   answered, waiting for the next request: closed after the keep-alive timeout (Node), or after
 *   the headers timeout if no request ever came; the oldest goes when the slots are full and no
 *   unproven socket is left to close.
 * - `reading`: a request whose body is still arriving, on a socket that has not earned trust: it
 *   has completed no request, carries no valid bearer token (MODELHOOKS_TOKEN_FILE) and, under
 *   mutual TLS, no client certificate. Closed to make room before any idle or busy socket (the
 *   oldest first): 260 sockets that sent a request head, then a byte a second, counted as busy
 *   and made 86 of 89 real syncs fail. The minimum data rate (hook-route.ts) closes them anyway.
 * - `busy`: a request being read or answered on a trusted socket, or answered (its body read):
 *   never closed to make room (Node's headers and request timeouts bound it); a new socket is
 *   refused when every slot is busy. A client that has completed a request before (a
 *   keep-alive connection of Metacontroller's) is thus never pushed out by reconnecting sockets.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';

export interface ConnectionLimits {
  maxConnections: number;
  maxPending: number;
  /** Milliseconds an unproven socket may stay so: the TLS handshake, or a plain socket's first request's headers. */
  unprovenMs: number;
  /** Milliseconds a socket past its handshake may wait for its first request. */
  firstRequestMs: number;
}

type State = 'unproven' | 'reading' | 'idle' | 'busy';
interface Slot {
  state: State;
  timer: NodeJS.Timeout | undefined;
  /** Requests being answered on this socket (pipelining aside, 0 or 1). */
  requests: number;
  /** Whether a request on it was answered with a status below 400, or carried the bearer token, or its client certificate was verified. */
  trusted: boolean;
}

/** Requests whose bearer token matched (hook-route.ts adds them before the slots see them): their socket is trusted. */
export const authenticated = new WeakSet<IncomingMessage>();

export interface ConnectionCounts {
  unproven: number;
  reading: number;
  idle: number;
  busy: number;
  /** Sockets closed to make room, by the state they were in; and new sockets refused (every slot busy). */
  evicted: { unproven: number; reading: number; idle: number };
  refused: number;
}

/** Manages the slots of `server`; `tls` says whether its sockets start with a handshake. */
export interface ManagedConnections {
  counts(): ConnectionCounts;
  /** Closes the sockets with no request in flight that Node's closeIdleConnections does not see (TLS handshakes, first requests not begun). */
  closeUnproven(): void;
  /** Closes every socket (the shutdown timeout): closeAllConnections misses those above. */
  closeAll(): void;
}

export function manageConnections(server: Server, limits: ConnectionLimits, tls: boolean, clientCertificates = false): ManagedConnections {
  // Insertion-ordered: the first of each is the oldest in that state.
  const byState: Record<State, Set<Socket>> = { unproven: new Set(), reading: new Set(), idle: new Set(), busy: new Set() };
  const slots = new Map<Socket, Slot>();
  const stats = { evicted: { unproven: 0, reading: 0, idle: 0 }, refused: 0 };
  const rawOf = new WeakMap<Socket, Socket>();

  const move = (socket: Socket, slot: Slot, state: State, timeoutMs?: number) => {
    byState[slot.state].delete(socket);
    slot.state = state;
    byState[state].add(socket);
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = timeoutMs === undefined ? undefined : setTimeout(() => socket.destroy(), timeoutMs).unref();
  };
  const evictOldest = (state: 'unproven' | 'reading' | 'idle'): boolean => {
    const oldest = byState[state].values().next().value as Socket | undefined;
    if (oldest === undefined) return false;
    stats.evicted[state]++;
    forget(oldest);
    oldest.destroy();
    return true;
  };
  const forget = (socket: Socket) => {
    const slot = slots.get(socket);
    if (slot === undefined) return;
    if (slot.timer) clearTimeout(slot.timer);
    byState[slot.state].delete(socket);
    slots.delete(socket);
  };

  server.on('connection', (socket: Socket) => {
    if (slots.size >= limits.maxConnections && !evictOldest('unproven') && !evictOldest('reading') && !evictOldest('idle')) {
      stats.refused++;
      socket.destroy();
      return;
    }
    if (byState.unproven.size >= limits.maxPending) evictOldest('unproven');
    const slot: Slot = { state: 'unproven', timer: undefined, requests: 0, trusted: false };
    slots.set(socket, slot);
    move(socket, slot, 'unproven', limits.unprovenMs);
    socket.once('close', () => forget(socket));
  });

  if (tls) {
    server.on('secureConnection', (secure: TLSSocket) => {
      const raw = (secure as TLSSocket & { _parent?: Socket })._parent;
      if (raw === undefined) return;
      rawOf.set(secure, raw);
      const slot = slots.get(raw);
      if (slot === undefined) return;
      // With a client CA, the handshake verified the client's certificate (rejectUnauthorized).
      if (clientCertificates) slot.trusted = true;
      if (slot.state === 'unproven') move(raw, slot, 'idle', limits.firstRequestMs);
    });
  }

  server.on(
    'request',
    (
      req: IncomingMessage & { once(event: 'end', listener: () => void): void },
      res: { statusCode: number; once(event: 'close', listener: () => void): void },
    ) => {
      const socket = rawOf.get(req.socket) ?? req.socket;
      const slot = slots.get(socket);
      if (slot === undefined) return;
      slot.requests++;
      if (authenticated.has(req)) slot.trusted = true;
      // Until its body has arrived, a request on an untrusted socket is the first closed to make room.
      if (slot.trusted || req.complete) move(socket, slot, 'busy');
      else {
        move(socket, slot, 'reading');
        req.once('end', () => {
          if (slot.state === 'reading' && slots.get(socket) === slot) move(socket, slot, 'busy');
        });
      }
      res.once('close', () => {
        slot.requests--;
        if (res.statusCode < 400) slot.trusted = true;
        // Node's keep-alive timeout closes it if nothing follows.
        if (slot.requests === 0 && slots.get(socket) === slot) move(socket, slot, 'idle');
      });
    },
  );

  return {
    closeUnproven: () => {
      for (const socket of [...byState.unproven]) socket.destroy();
    },
    closeAll: () => {
      for (const socket of [...slots.keys()]) socket.destroy();
    },
    counts: () => ({
      unproven: byState.unproven.size,
      reading: byState.reading.size,
      idle: byState.idle.size,
      busy: byState.busy.size,
      evicted: { ...stats.evicted },
      refused: stats.refused,
    }),
  };
}
