/**
 * `MODELHOOKS_NAMESPACE_SELECTOR`: the label selector, in Kubernetes' string syntax
 * (k8s.io/apimachinery pkg/labels/selector.go `Parse`), that a parent's Namespace must match
 * for a composition to serve it. Equality (`a=b`, `a==b`, `a!=b`), set (`a in (x,y)`,
 * `a notin (x)`) and existence (`a`, `!a`) requirements, comma-separated, all must hold.
 */

export type Requirement = { key: string; op: 'in' | 'notin'; values: string[] } | { key: string; op: 'exists' | '!' };

/** A parsed selector; `text` is what the admin wrote (for messages). */
export interface NamespaceSelector {
  text: string;
  requirements: Requirement[];
}

export class SelectorError extends Error {
  override name = 'SelectorError';
}

// A label key: an optional DNS-subdomain prefix and `/`, then a name of up to 63 characters.
const KEY = /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$/;
// A label value: empty or up to 63 characters.
const VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]{0,61})?[A-Za-z0-9])?$/;

function key(k: string, text: string): string {
  const prefix = k.includes('/') ? k.slice(0, k.indexOf('/')) : '';
  if (!KEY.test(k) || prefix.length > 253) throw new SelectorError(`"${text}": "${k}" is not a valid label key`);
  return k;
}

function value(v: string, text: string): string {
  if (!VALUE.test(v)) throw new SelectorError(`"${text}": "${v}" is not a valid label value`);
  return v;
}

/** Splits on commas outside parentheses. */
function terms(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of text) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (depth < 0) throw new SelectorError(`"${text}": unbalanced parentheses`);
    if (ch === ',' && depth === 0) {
      out.push(current.trim());
      current = '';
    } else current += ch;
  }
  if (depth !== 0) throw new SelectorError(`"${text}": unbalanced parentheses`);
  out.push(current.trim());
  return out;
}

/** Parses a selector; the empty string selects every namespace. Throws SelectorError naming the bad term. */
export function parseNamespaceSelector(text: string): NamespaceSelector {
  const trimmed = text.trim();
  if (trimmed === '') return { text: '', requirements: [] };
  const requirements = terms(trimmed).map((term): Requirement => {
    if (term === '') throw new SelectorError(`"${text}": an empty requirement`);
    const set = /^(\S+)\s+(in|notin)\s*\((.*)\)$/.exec(term);
    if (set) {
      const values = (set[3] ?? '').split(',').map((v) => v.trim());
      if (values.length === 1 && values[0] === '') throw new SelectorError(`"${text}": ${set[1]} ${set[2]} () needs at least one value`);
      return { key: key(set[1] as string, text), op: set[2] as 'in' | 'notin', values: values.map((v) => value(v, text)) };
    }
    const eq = /^([^=!\s]+)\s*(==|=|!=)\s*(\S*)$/.exec(term);
    if (eq) {
      const v = value(eq[3] as string, text);
      return { key: key(eq[1] as string, text), op: eq[2] === '!=' ? 'notin' : 'in', values: [v] };
    }
    if (term.startsWith('!')) return { key: key(term.slice(1).trim(), text), op: '!' };
    return { key: key(term, text), op: 'exists' };
  });
  return { text: trimmed, requirements };
}

/** Whether labels satisfy every requirement (`notin` and `!=` hold for a missing key, as in Kubernetes). */
export function selectorMatches(selector: NamespaceSelector, labels: Record<string, string> | undefined): boolean {
  const l = labels ?? {};
  return selector.requirements.every((r) => {
    const has = Object.hasOwn(l, r.key);
    switch (r.op) {
      case 'exists':
        return has;
      case '!':
        return !has;
      case 'in':
        return has && r.values.includes(l[r.key] as string);
      case 'notin':
        return !has || !r.values.includes(l[r.key] as string);
    }
  });
}
