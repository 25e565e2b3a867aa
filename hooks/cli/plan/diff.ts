import { isRecord } from '../../kit/types.js';
import { deepEqual } from './apply.js';

/** One field that changes: its path (`spec.template.spec.containers[kserve-container].image`), the value before and after (absent: not set). */
export interface FieldChange {
  path: string;
  before?: unknown;
  after?: unknown;
}

/**
 * The fields that differ between two JSON values, at the deepest level where both are objects.
 * List items are matched by `name` (containers, ports, env, volumes) or `type` (conditions)
 * when every item of both lists has a distinct one, otherwise by index when both lists are the same
 * length; any other list that changes is one change.
 */
export function fieldChanges(before: unknown, after: unknown, path = ''): FieldChange[] {
  const out: FieldChange[] = [];
  walk(before, after, path, out);
  return out;
}

function walk(a: unknown, b: unknown, path: string, out: FieldChange[]): void {
  if (deepEqual(a, b)) return;
  if (isRecord(a) && isRecord(b) && !Array.isArray(a) && !Array.isArray(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of [...keys].sort()) {
      const p = path === '' ? k : `${path}.${k}`;
      const has = [Object.hasOwn(a, k), Object.hasOwn(b, k)];
      if (has[0] && has[1]) walk(a[k], b[k], p, out);
      else if (has[0]) out.push({ path: p, before: a[k] });
      else out.push({ path: p, after: b[k] });
    }
    return;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    const key = itemKey(a, b);
    if (key) {
      const start = out.length;
      const left = new Map(a.map((i) => [(i as Record<string, string>)[key] as string, i]));
      const right = new Map(b.map((i) => [(i as Record<string, string>)[key] as string, i]));
      for (const [name, item] of left) {
        if (right.has(name)) walk(item, right.get(name), `${path}[${name}]`, out);
        else out.push({ path: `${path}[${name}]`, before: item });
      }
      for (const [name, item] of right) if (!left.has(name)) out.push({ path: `${path}[${name}]`, after: item });
      // Same items, another order: the order is the change.
      if (out.length === start) out.push({ path, before: a, after: b });
      return;
    }
    if (a.length === b.length) {
      for (let i = 0; i < a.length; i++) walk(a[i], b[i], `${path}[${i}]`, out);
      return;
    }
  }
  out.push({ path, before: a, after: b });
}

/** `name` (containers, env, ports) or `type` (conditions) when every item of both lists has a distinct one. */
function itemKey(a: unknown[], b: unknown[]): string | undefined {
  return ['name', 'type'].find((k) => keyedBy(a, k) && keyedBy(b, k));
}

function keyedBy(list: unknown[], key: string): boolean {
  const seen = new Set<string>();
  for (const item of list) {
    const v = isRecord(item) ? item[key] : undefined;
    if (typeof v !== 'string' || seen.has(v)) return false;
    seen.add(v);
  }
  return true;
}
