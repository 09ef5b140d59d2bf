/** Knowledge-graph write settings. */
export interface GraphConfig {
  /** Relation strength for every pipeline relation (fixed at 1.0). */
  readonly relationStrength: number;
  /** Confidence of a relation from an LLM payload (default 0.7). */
  readonly llmRelationConfidence: number;
  /** Confidence of a pattern-matched relation (default 0.5). */
  readonly heuristicRelationConfidence: number;
  /** Confidence of a mention link made by extraction (default 0.7). */
  readonly mentionConfidence: number;
  /** Weight of a new aspect (default 0.5). */
  readonly aspectWeight: number;
  /** How much confirming an existing attribute raises its confidence, capped at 1. */
  readonly confirmConfidenceStep: number;
  /** Cosine above which two same-type memories are proposed as duplicates (default 0.92, gentle). */
  readonly duplicateThreshold: number;
  /** Cosine above which two same-slot attributes are checked for a conflict (default 0.85). */
  readonly conflictThreshold: number;
  /** Newest memories a maintenance scan looks at (default 200). */
  readonly maintenanceWindow: number;
}

export const DEFAULT_GRAPH_CONFIG: GraphConfig = {
  relationStrength: 1.0,
  llmRelationConfidence: 0.7,
  heuristicRelationConfidence: 0.5,
  mentionConfidence: 0.7,
  aspectWeight: 0.5,
  confirmConfidenceStep: 0.1,
  duplicateThreshold: 0.92,
  conflictThreshold: 0.85,
  maintenanceWindow: 200,
};

const clamp = (v: number | undefined, lo: number, hi: number, dflt: number): number =>
  v === undefined || !Number.isFinite(v) ? dflt : Math.min(hi, Math.max(lo, v));

export function resolveGraphConfig(p: Partial<GraphConfig> = {}): GraphConfig {
  const d = DEFAULT_GRAPH_CONFIG;
  return {
    relationStrength: clamp(p.relationStrength, 0, 1, d.relationStrength),
    llmRelationConfidence: clamp(p.llmRelationConfidence, 0, 1, d.llmRelationConfidence),
    heuristicRelationConfidence: clamp(p.heuristicRelationConfidence, 0, 1, d.heuristicRelationConfidence),
    mentionConfidence: clamp(p.mentionConfidence, 0, 1, d.mentionConfidence),
    aspectWeight: clamp(p.aspectWeight, 0, 1, d.aspectWeight),
    confirmConfidenceStep: clamp(p.confirmConfidenceStep, 0, 1, d.confirmConfidenceStep),
    duplicateThreshold: clamp(p.duplicateThreshold, 0.5, 1, d.duplicateThreshold),
    conflictThreshold: clamp(p.conflictThreshold, 0.5, 1, d.conflictThreshold),
    maintenanceWindow: Math.round(clamp(p.maintenanceWindow, 10, 5_000, d.maintenanceWindow)),
  };
}
