import { detectContradiction } from './contradiction';
import type { ContradictionDeps, ContradictionVerdict } from './contradiction';
import type { ExtractionPayload } from './contract';
import { canonicalName, normalizeKey } from '../graph/keys';
import type { SqlReader } from '../store/storeTypes';
import { unscopedEntityName } from '../graph/unscopedEntityName';

/** A stored attribute a new fact contradicts according to the semantic (LLM) check. */
export interface SemanticSupersession {
  readonly factIndex: number;
  readonly attributeId: string;
  readonly verdict: ContradictionVerdict;
}

export interface SiblingCandidate {
  readonly factIndex: number;
  readonly attributeId: string;
  readonly siblingContent: string;
  readonly factContent: string;
}

/**
 * Reads (synchronously, inside one store read) the active sibling attributes each claim-less,
 * non-constraint fact of a payload will land next to: same entity, aspect and group.
 */
export function collectSiblingCandidates(db: SqlReader, payload: ExtractionPayload, agentId = 'default'): SiblingCandidate[] {
  if (!payload.facts?.length) return [];
  const out: SiblingCandidate[] = [];
  for (const [i, f] of payload.facts.entries()) {
    if (f.claim_key || f.type === 'constraint') continue;
    const siblings = db.all<{ id: string; content: string }>(
      `SELECT a.id, a.content FROM entity_attributes a
         JOIN entity_aspects s ON s.id = a.aspect_id JOIN entities e ON e.id = s.entity_id
        WHERE e.agent_id = ? AND ${unscopedEntityName('e.')} AND s.canonical_name = ?
          AND a.status = 'active' AND a.kind = 'attribute' AND a.claim_key IS NULL AND a.group_key IS ?`,
      [agentId, canonicalName(f.entity), canonicalName(f.aspect), normalizeKey(f.group_key)]);
    for (const s of siblings) out.push({ factIndex: i, attributeId: s.id, siblingContent: s.content, factContent: f.content });
  }
  return out;
}

/**
 * Before an extraction payload is written: asks the contradiction detector about each fact's
 * sibling candidates. The syntactic path is already applied at write time, so only semantic
 * verdicts at or above the configured confidence are returned. With no LLM, or the semantic check
 * switched off, this returns nothing and calls nothing. Never rejects.
 */
export async function planSemanticSupersession(candidates: readonly SiblingCandidate[], deps: ContradictionDeps): Promise<SemanticSupersession[]> {
  if (!deps.llm || !deps.config.semanticEnabled) return [];
  const out: SemanticSupersession[] = [];
  for (const c of candidates) {
    const verdict = await detectContradiction(c.siblingContent, c.factContent, deps);
    if (verdict.reason === 'semantic' && verdict.confidence >= deps.config.minConfidence) out.push({ factIndex: c.factIndex, attributeId: c.attributeId, verdict });
  }
  return out;
}
