import { createHash, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Logger } from 'pino';
import { ConfigError } from './errors.js';

/** Where the bearer token comes from: a fixed value in tests, a file in a pod. */
export interface TokenSource {
  current(): string;
  close?(): void;
}

/** A token read from a file, trimmed (as Metacontroller trims the Secret value it sends). */
export function readToken(file: string): string {
  let token: string;
  try {
    token = readFileSync(file, 'utf8').trim();
  } catch (err) {
    throw new ConfigError(`invalid configuration: MODELHOOKS_TOKEN_FILE: cannot read ${file} (${(err as NodeJS.ErrnoException).code})`);
  }
  if (token === '') throw new ConfigError(`invalid configuration: MODELHOOKS_TOKEN_FILE: ${file} is empty`);
  return token;
}

/**
 * The token in a file, read at start and re-read every few seconds (a mounted Secret is
 * replaced by the kubelet within about a minute of its update). A file that cannot be read
 * keeps the token that was last read, with a warning.
 */
export function watchedToken(file: string, logger: Logger, intervalMs = 5000): TokenSource {
  let token = readToken(file);
  const timer = setInterval(() => {
    try {
      const next = readToken(file);
      if (next !== token) logger.info({ file }, 'bearer token reloaded');
      token = next;
    } catch (err) {
      logger.warn({ err, file }, 'cannot re-read the bearer token; keeping the previous one');
    }
  }, intervalMs);
  timer.unref();
  return { current: () => token, close: () => clearInterval(timer) };
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Whether an `Authorization` header carries the token; constant time in the token's content and length. */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer +(\S+) *$/i.exec(header ?? '');
  // Compared even without a header, so the time taken says nothing about what was sent.
  return timingSafeEqual(digest(match?.[1] ?? ''), digest(token)) && match !== null;
}
