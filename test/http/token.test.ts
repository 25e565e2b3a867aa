import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { bearerMatches, readToken, watchedToken } from '../../hooks/server/auth.js';
import { builtinCompositions } from '../../hooks/compositions.js';
import { loadConfig } from '../../hooks/server/config.js';
import { createApp } from '../../hooks/server/app.js';
import { main } from '../../hooks/cli/main.js';

describe('bearer token', () => {
  it('matches only `Bearer <token>`, case-insensitive in the scheme', () => {
    expect(bearerMatches('Bearer abc', 'abc')).toBe(true);
    expect(bearerMatches('bearer abc', 'abc')).toBe(true);
    for (const header of [undefined, '', 'abc', 'Bearer ', 'Bearer ab', 'Bearer abcd', 'Bearer abc def', 'Basic abc']) {
      expect(bearerMatches(header, 'abc'), String(header)).toBe(false);
    }
  });

  it('is read from MODELHOOKS_TOKEN_FILE, trimmed, and required on /hooks/* only', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'modelhooks-token-'));
    try {
      const file = path.join(dir, 'token');
      writeFileSync(file, '  tok-1\n');
      const app = createApp({ compositions: builtinCompositions, config: loadConfig({ MODELHOOKS_TOKEN_FILE: file }), logger: pino({ level: 'silent' }) });
      const res = await request(app).post('/hooks/trustyai/customize').send({ parent: {} }).expect(401);
      expect(res.headers['www-authenticate']).toBe('Bearer');
      await request(app).post('/hooks/trustyai/customize').set('Authorization', 'Bearer tok-1').send({ parent: {} }).expect(400);
      await request(app).get('/healthz').expect(200);
      await request(app).get('/metrics').expect(200);
      writeFileSync(file, '\n');
      expect(() => readToken(file)).toThrow(/MODELHOOKS_TOKEN_FILE: .* is empty/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is re-read when the file changes; an unreadable file keeps the last token', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'modelhooks-token-'));
    const file = path.join(dir, 'token');
    writeFileSync(file, 'old');
    const token = watchedToken(file, pino({ level: 'silent' }), 20);
    try {
      expect(token.current()).toBe('old');
      writeFileSync(file, 'new-and-longer');
      for (let i = 0; i < 100 && token.current() !== 'new-and-longer'; i++) await new Promise((r) => setTimeout(r, 20));
      expect(token.current()).toBe('new-and-longer');
      rmSync(file);
      await new Promise((r) => setTimeout(r, 200));
      expect(token.current()).toBe('new-and-longer');
    } finally {
      token.close?.();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('`serve` stops with exit 1 and names the variable when a token or TLS file cannot be read', async () => {
    for (const [env, message] of [
      [{ MODELHOOKS_TOKEN_FILE: '/nonexistent/token' }, /MODELHOOKS_TOKEN_FILE: cannot read \/nonexistent\/token \(ENOENT\)/],
      [{ MODELHOOKS_TLS_CERT_FILE: '/nonexistent/tls.crt', MODELHOOKS_TLS_KEY_FILE: '/nonexistent/tls.key' }, /MODELHOOKS_TLS_CERT_FILE: cannot read/],
    ] as const) {
      let err = '';
      const code = await main(['serve', '--port', '1'], {
        out: () => undefined,
        err: (t) => void (err += t),
        env: { MODELHOOKS_LOG_LEVEL: 'silent', ...env },
        cwd: '.',
      });
      expect(code).toBe(1);
      expect(err).toMatch(message);
    }
  });
});
