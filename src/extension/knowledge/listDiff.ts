/**
 * Compares the rows the panel last received with a fresh read of the same window and decides the
 * smallest message that brings the panel up to date.
 */
import type { EntitySummary } from '../../../src/shared/knowledgeProtocolTypes';

export type WindowDiff =
  | { readonly kind: 'same' }
  /** Same order: only these rows changed (matched by id), and these ids disappeared. */
  | { readonly kind: 'delta'; readonly upserts: readonly EntitySummary[]; readonly removed: readonly string[] }
  /** The order changed (or rows shifted in from outside the window): resend the window. */
  | { readonly kind: 'reset' };

function sameSummary(a: EntitySummary, b: EntitySummary): boolean {
  if (a.id !== b.id || a.name !== b.name || a.type !== b.type || a.pinned !== b.pinned || a.pinnedAt !== b.pinnedAt
    || a.mentions !== b.mentions || a.aspects !== b.aspects || a.attributes !== b.attributes
    || a.constraints !== b.constraints || a.relations !== b.relations) return false;
  const h = a.health;
  const k = b.health;
  if (h === null || k === null) return h === k;
  return h.comparisonCount === k.comparisonCount && h.winRate === k.winRate && h.avgMargin === k.avgMargin && h.trend === k.trend;
}

/**
 * @param before rows last sent for the window, in order
 * @param after rows read now for the same window
 * @param windowStartsAtZero removals are only expressible as a delta when nothing precedes the
 *   window (otherwise a removal before it shifts every row and looks like a removal inside it)
 */
export function diffWindow(
  before: readonly EntitySummary[],
  after: readonly EntitySummary[],
  totalBefore: number,
  totalAfter: number,
  windowStartsAtZero: boolean,
): WindowDiff {
  if (after.length === before.length && totalAfter === totalBefore) {
    const upserts: EntitySummary[] = [];
    for (let i = 0; i < before.length; i++) {
      const a = before[i] as EntitySummary;
      const b = after[i] as EntitySummary;
      if (a.id !== b.id) return { kind: 'reset' };
      if (!sameSummary(a, b)) upserts.push(b);
    }
    return upserts.length ? { kind: 'delta', upserts, removed: [] } : { kind: 'same' };
  }
  const removedCount = before.length - after.length;
  if (!windowStartsAtZero || removedCount <= 0 || totalBefore - totalAfter !== removedCount) return { kind: 'reset' };
  // Rows only disappeared: `after` must be `before` minus some rows, in the same order.
  const removed: string[] = [];
  const upserts: EntitySummary[] = [];
  let j = 0;
  for (const a of before) {
    const b = after[j];
    if (b !== undefined && b.id === a.id) {
      if (!sameSummary(a, b)) upserts.push(b);
      j++;
    } else {
      removed.push(a.id);
    }
  }
  if (j !== after.length || removed.length !== removedCount) return { kind: 'reset' };
  return { kind: 'delta', upserts, removed };
}
