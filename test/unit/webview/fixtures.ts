/** Well-formed protocol values the webview tests start from (and then break one field at a time). */
import type { EntityDetail, EntitySummary, KnowledgeStats, RecallResultView } from '../../../src/shared/knowledgeProtocolTypes';

export function entity(i: number, patch: Partial<EntitySummary> = {}): EntitySummary {
  return {
    id: `e${i}`, name: `Entity ${i}`, type: 'tool', pinned: false, pinnedAt: null, mentions: 10 - (i % 10),
    aspects: 2, attributes: 5, constraints: 1, relations: 3,
    health: { comparisonCount: 4, winRate: 0.5, avgMargin: 0.1, trend: 'stable' },
    ...patch,
  };
}

export function detail(i: number): EntityDetail {
  return {
    summary: entity(i),
    canonicalName: `entity ${i}`,
    description: null,
    updatedAt: '2026-11-29T10:00:00.000Z',
    aspects: [
      { id: 'a1', name: 'build', weight: 0.8, updatedAt: null, attributes: [
        { id: 't1', kind: 'constraint', status: 'active', importance: 0.9, content: 'never import vscode in core', supersededBy: null, currentnessNote: null, observedAt: null, source: null, team: null },
      ] },
      { id: 'a2', name: 'tests', weight: 0.3, updatedAt: null, attributes: [] },
    ],
    unassigned: [],
    relations: [{ id: 'r1', direction: 'outgoing', relationType: 'uses', otherId: 'e2', otherName: 'Entity 2', strength: 1, confidence: 0.5, mentions: 2 }],
  };
}

export function stats(): KnowledgeStats {
  return {
    counts: { memories: 10, entities: 3, pinned: 1, aspects: 4, attributes: 9, constraints: 1, relations: 2 },
    feedback: { aspectsUpdatedLast7Days: 2, avgAspectWeight: 0.55, aspectsAtMax: 1, aspectsAtMin: 0 },
    telemetry: null,
  };
}

export function recallResult(): RecallResultView {
  return {
    id: 'm1', content: 'use mocha', score: 0.8, relevance: 1, memoryType: 'fact', createdAt: null, stale: null,
    explain: { channels: [{ name: 'lexical', value: 0.7, op: 'score' }], boosts: [{ name: 'graph', value: 0.15, op: 'add' }], penalties: [{ name: 'superseded', value: 0.5, op: 'multiply' }], notes: ['matched: mocha'], lines: ['Found because it shares 1 of 1 words with the question.'] },
    team: null,
  };
}

/** A structured-clone-like deep copy that lets a test mutate one field of a fixture. */
export function mutate<T>(value: T, change: (copy: Record<string, unknown>) => void): unknown {
  const copy = JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
  change(copy);
  return copy;
}
