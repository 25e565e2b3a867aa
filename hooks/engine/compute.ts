/**
 * A hook request's body in, its answer's JSON out: the compute of a request on a cache miss,
 * the same on the event loop (server/hook-answer.ts) and in a worker thread
 * (engine/compute-worker.ts): parse (without managedFields), check the envelope, run the hook,
 * write the answer.
 */
import type { AnyComposition } from '../kit/composition.js';
import { READY } from '../kit/status/conditions.js';
import { isRecord } from '../kit/types.js';
import { answerJson } from './answer-json.js';
import { INVALID_SPEC, runHook, type HookContext } from './protocol.js';
import { parseHookRequest, RequestShapeError, type HookName } from './request.js';
import { parseRequestJson } from './request-json.js';
import { isDecoratorHook, runDecoratorHook } from './decorator.js';
import type { DecoratorHookName } from './request.js';

export type Computed =
  /** The answer's JSON; `parent` is `namespace/name`; `invalidSpec` the Ready message of an InvalidSpec answer. */
  | { kind: 'answer'; text: string; parent: string; invalidSpec: string | undefined }
  /** A 400: the body is not JSON, not a hook request, or names its parent's namespace twice. */
  | { kind: 'refused'; message: string }
  /** The hook threw (a bug): a 500, logged with the parent. */
  | { kind: 'error'; error: unknown; parent: string };

/**
 * `namespace`: the parent's, as the bytes said before the parse (server/admission.ts): only a
 * body with two parent.metadata.namespace keys (JSON.parse keeps the last) tells them apart,
 * and such a body waited in another namespace's queue.
 */
export function computeAnswer(composition: AnyComposition, hook: HookName, raw: Buffer, ctx: HookContext, namespace?: string): Computed {
  let body: unknown;
  try {
    body = parseRequestJson(raw);
  } catch (err) {
    return { kind: 'refused', message: `body: malformed JSON (${(err as Error).message})` };
  }
  if (isDecoratorHook(hook)) return computeDecorator(composition, hook, body, ctx);
  let request: ReturnType<typeof parseHookRequest>;
  try {
    request = parseHookRequest(body);
  } catch (err) {
    if (err instanceof RequestShapeError) return { kind: 'refused', message: err.message };
    throw err;
  }
  if (namespace !== undefined && request.parent.metadata.namespace !== namespace) {
    return { kind: 'refused', message: 'body: parent.metadata.namespace is given more than once' };
  }
  const parent = `${request.parent.metadata.namespace}/${request.parent.metadata.name}`;
  let result: Record<string, unknown>;
  try {
    result = runHook(composition, hook, request, ctx);
  } catch (error) {
    return { kind: 'error', error, parent };
  }
  return { kind: 'answer', text: answerJson(result), parent, invalidSpec: invalidSpecMessage(result) };
}

/** The message of `Ready=False/InvalidSpec`, if the answer's status carries it. */
export function invalidSpecMessage(result: Record<string, unknown>): string | undefined {
  const status = result.status;
  if (!isRecord(status) || !Array.isArray(status.conditions)) return undefined;
  const ready = status.conditions.find((c) => isRecord(c) && c.type === READY);
  return isRecord(ready) && ready.reason === INVALID_SPEC ? String(ready.message ?? '') : undefined;
}

/** A DecoratorController's request (engine/decorator.ts): a bad envelope is a 400, a throw a 500. */
function computeDecorator(composition: AnyComposition, hook: DecoratorHookName, body: unknown, ctx: HookContext): Computed {
  let ran: ReturnType<typeof runDecoratorHook>;
  try {
    ran = runDecoratorHook(composition, hook, body, ctx.namespaceSelector);
  } catch (error) {
    if (error instanceof RequestShapeError) return { kind: 'refused', message: error.message };
    return { kind: 'error', error, parent: '' };
  }
  return { kind: 'answer', text: JSON.stringify(ran.answer), parent: ran.parent, invalidSpec: undefined };
}
