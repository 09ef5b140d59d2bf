import type { ContradictionConfig } from '../config/extractionConfig';
import type { GraphConfig } from '../config/graphConfig';

/** Who is writing to the graph and why; every graph_ops row carries these. */
export interface GraphWriteContext {
  /** "extractor:heuristic", "extractor:llm", "user", "maintenance" ... */
  readonly actor: string;
  readonly reason: string;
  /** ISO time from the injected clock (never SQL 'now': the journal replays statements). */
  readonly nowIso: string;
  /** Id source (random UUIDs in production, counters in tests). */
  readonly newId: () => string;
  readonly agentId: string;
  readonly config: GraphConfig;
  readonly contradiction: ContradictionConfig;
}

export type GraphTargetKind = 'entity' | 'relation' | 'mention' | 'aspect' | 'attribute' | 'memory';

export interface GraphOpRecord {
  readonly op: string;
  readonly targetKind: GraphTargetKind;
  readonly targetId: string | null;
  readonly memoryId?: string | null;
  readonly details?: Record<string, unknown>;
}
