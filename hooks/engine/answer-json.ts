import { isFrozenData, keptJson } from '../kit/spec-memo.js';

/**
 * An answer's JSON, the same text as JSON.stringify's, with each child that is frozen plain
 * data (a memo's value, kit deepFreeze: its text can never change) written once and kept: an
 * unchanged InferenceService answers the same Deployment, Service and Ingress objects sync
 * after sync, and writing them out again was most of serialising its answer. Other values
 * (the status, children built for this sync) are written as JSON.stringify writes them.
 * Why it stays (2026-11-26, aa67d9d): a kept child's text is taken in 0.1 µs instead of
 * written in 4.5–5.5 µs, 4–8 children an InferenceService sync (18–44 µs, a settled-plan hit),
 * and the settled plan writes that text anyway to charge its bytes (plan.ts settledBytes).
 */
export function answerJson(answer: Record<string, unknown>): string {
  // Nothing kept to reuse (every child built for this answer): JSON.stringify's one pass.
  if (!Array.isArray(answer.children) || !answer.children.some(isKept)) return JSON.stringify(answer);
  let out = '{';
  for (const key of Object.keys(answer)) {
    const value = answer[key];
    const text = key === 'children' ? childrenJson(value as unknown[]) : JSON.stringify(value);
    // JSON.stringify leaves out a key whose value has no JSON (undefined, a function).
    if (text === undefined) continue;
    out += `${out.length > 1 ? ',' : ''}${JSON.stringify(key)}:${text}`;
  }
  return `${out}}`;
}

const isKept = (child: unknown): child is object => typeof child === 'object' && child !== null && isFrozenData(child);

function childrenJson(children: readonly unknown[]): string {
  let out = '[';
  for (let i = 0; i < children.length; i++) {
    const child = children[i];
    if (i > 0) out += ',';
    const kept = keptJson(child);
    if (kept !== undefined) {
      out += kept;
    } else {
      // Where an array holds undefined or a function, JSON.stringify writes null.
      out += JSON.stringify(child) ?? 'null';
    }
  }
  return `${out}]`;
}
