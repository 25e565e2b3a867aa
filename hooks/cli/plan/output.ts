/**
 * plan's report: per changed (or failing) parent its children to create, update (a field diff),
 * recreate or delete and its status change; the Deployments that roll; a summary by namespace
 * and by composition. Text for people, JSON (`-o json`) for tools. No Secret value ever leaves:
 * every string of the report that holds one is redacted before either is written.
 */
import { isRecord } from '../../kit/types.js';
import type { FieldChange } from './diff.js';
import type { ChildPlan, ParentPlan } from './plan.js';

export const REDACTED = '<redacted>';

export interface Counts {
  parents: number;
  unchanged: number;
  changed: number;
  failing: number;
  /** Deployments whose pods would be replaced. */
  rolled: number;
}

export interface PlanReport {
  summary: Counts & { byNamespace: Record<string, Counts>; byComposition: Record<string, Counts> };
  /** Every parent planned, unchanged ones too (`result`). */
  parents: ParentPlan[];
  warnings: string[];
}

const zero = (): Counts => ({ parents: 0, unchanged: 0, changed: 0, failing: 0, rolled: 0 });

export function reportOf(parents: ParentPlan[], warnings: string[]): PlanReport {
  const total = zero();
  const byNamespace: Record<string, Counts> = {};
  const byComposition: Record<string, Counts> = {};
  for (const p of parents) {
    const rolled = p.children.filter((c) => c.rolls).length;
    for (const counts of [total, (byNamespace[p.namespace] ??= zero()), (byComposition[p.composition] ??= zero())]) {
      counts.parents++;
      counts[p.result]++;
      counts.rolled += rolled;
    }
  }
  return { summary: { ...total, byNamespace: sorted(byNamespace), byComposition: sorted(byComposition) }, parents, warnings };
}

function sorted<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** 0 nothing changes, 2 something changes, 1 a parent could not be planned. */
export function exitCodeOf(report: PlanReport): number {
  if (report.summary.failing > 0) return 1;
  return report.summary.changed > 0 ? 2 : 0;
}

/**
 * The report with every string that holds a Secret value redacted (a value equal to one, and,
 * for values of 6 characters or more, any occurrence inside a longer string), and every field
 * of a Secret child's data. Keys (paths) are redacted as values are.
 */
export function redacted(report: PlanReport, secrets: Set<string>): PlanReport {
  if (secrets.size === 0) return report;
  const long = [...secrets].filter((s) => s.length >= 6).sort((a, b) => b.length - a.length);
  const scrub = (v: unknown): unknown => {
    if (typeof v === 'string') {
      if (secrets.has(v)) return REDACTED;
      let out = v;
      for (const s of long) if (out.includes(s)) out = out.split(s).join(REDACTED);
      return out;
    }
    if (Array.isArray(v)) return v.map(scrub);
    if (isRecord(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [scrub(k) as string, scrub(x)]));
    return v;
  };
  const secretData = (c: ChildPlan): ChildPlan =>
    c.kind === 'Secret' && c.changes ? { ...c, changes: c.changes.map((ch) => (/^(data|stringData)(\.|$)/.test(ch.path) ? redactChange(ch) : ch)) } : c;
  return scrub({ ...report, parents: report.parents.map((p) => ({ ...p, children: p.children.map(secretData) })) }) as PlanReport;
}

function redactChange(ch: FieldChange): FieldChange {
  return { path: ch.path, ...(ch.before !== undefined ? { before: REDACTED } : {}), ...(ch.after !== undefined ? { after: REDACTED } : {}) };
}

const SYMBOL: Record<ChildPlan['action'], string> = { create: '+', update: '~', recreate: '-/+', delete: '-', held: '=' };

/** A value on one line: JSON, cut at 120 characters. */
function show(v: unknown): string {
  const text = v === undefined ? '(unset)' : JSON.stringify(v);
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}

function changeLine(ch: FieldChange): string {
  if (ch.before === undefined) return `${ch.path}: + ${show(ch.after)}`;
  if (ch.after === undefined) return `${ch.path}: - ${show(ch.before)}`;
  return `${ch.path}: ${show(ch.before)} → ${show(ch.after)}`;
}

export function textOf(report: PlanReport): string {
  const lines: string[] = [];
  for (const p of report.parents) {
    if (p.result === 'unchanged' && p.notes.length === 0) continue;
    const head = `${p.kind} ${p.namespace}/${p.name} (${p.composition})`;
    if (p.result === 'failing') {
      lines.push(`${head}: cannot be planned: ${p.error}`, '');
      continue;
    }
    lines.push(
      `${head}: ${p.result}${p.takeover ? " — takeover: children owned by the parent without Metacontroller's controller-uid label (another controller made them)" : ''}`,
    );
    for (const note of p.notes) lines.push(`  note: ${note}`);
    for (const c of p.children) {
      const what = c.bookkeepingOnly ? " (only Metacontroller's last-applied annotation and controller-uid label)" : '';
      lines.push(`  ${SYMBOL[c.action]} ${c.action} ${c.kind} ${c.name}${what}${c.rolls ? ` — rolls: ${c.rolls}` : ''}`);
      if (c.note) lines.push(`      ${c.note}`);
      if (!c.bookkeepingOnly) for (const ch of c.changes ?? []) lines.push(`      ${changeLine(ch)}`);
    }
    if (p.status.changes.length > 0) {
      lines.push('  ~ status');
      for (const ch of p.status.changes) lines.push(`      ${changeLine(ch)}`);
    }
    lines.push('');
  }
  const rolls = report.parents.flatMap((p) => p.children.filter((c) => c.rolls).map((c) => `  ${p.namespace}/${c.name} (${p.kind} ${p.name}): ${c.rolls}`));
  if (rolls.length > 0) lines.push(`Deployments that would roll (${rolls.length}):`, ...rolls, '');
  for (const w of report.warnings) lines.push(`warning: ${w}`);
  if (report.warnings.length > 0) lines.push('');
  lines.push(...table(report));
  return `${lines.join('\n')}\n`;
}

function table(report: PlanReport): string[] {
  const s = report.summary;
  const rows: string[][] = [['', 'parents', 'unchanged', 'changed', 'failing', 'rolled']];
  const row = (label: string, c: Counts) => [label, c.parents, c.unchanged, c.changed, c.failing, c.rolled].map(String);
  for (const [ns, c] of Object.entries(s.byNamespace)) rows.push(row(`namespace ${ns}`, c));
  for (const [name, c] of Object.entries(s.byComposition)) rows.push(row(`composition ${name}`, c));
  rows.push(row('total', s));
  const widths = (rows[0] as string[]).map((_, i) => Math.max(...rows.map((r) => (r[i] as string).length)));
  const verdict =
    s.failing > 0
      ? `${s.failing} parent(s) cannot be planned`
      : s.changed > 0
        ? `${s.changed} of ${s.parents} parent(s) would change, ${s.rolled} Deployment(s) would roll`
        : `no changes: ${s.parents} parent(s) as the cluster has them`;
  return [
    'Summary:',
    ...rows.map((r) => `  ${r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] as number) : cell.padStart(widths[i] as number))).join('  ')}`),
    verdict,
  ];
}
