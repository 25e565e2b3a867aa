import request from 'supertest';
import { expect } from 'vitest';

/**
 * A hook call through the real hook server, as Metacontroller makes it: anything but a 200
 * fails the test and shows the answer.
 */
export async function postHook(app: Parameters<typeof request>[0], url: string, body: unknown): Promise<Record<string, unknown>> {
  const res = await request(app)
    .post(url)
    .send(body as object);
  expect(res.status, `${url}: ${JSON.stringify(res.body)}`).toBe(200);
  return res.body as Record<string, unknown>;
}
