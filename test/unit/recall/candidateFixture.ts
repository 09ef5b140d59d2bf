import { emptyChannels } from '../../../src/core/recall/recallTypes';
import type { Candidate, ChannelScores } from '../../../src/core/recall/recallTypes';

/** A hydrated candidate for stage tests. */
export function cand(id: string, score: number, over: Partial<Omit<Candidate, 'channels' | 'explain'>> & { channels?: Partial<ChannelScores> } = {}): Candidate {
  const channels = { ...emptyChannels(), ...(over.channels ?? {}) };
  return {
    id,
    content: over.content ?? `memory ${id}`,
    type: over.type ?? 'fact',
    createdAt: over.createdAt ?? '2026-01-01T00:00:00.000Z',
    sourceId: over.sourceId ?? null,
    importance: over.importance ?? 0.5,
    score,
    channels,
    explain: { channels, fused: score, sources: [], boosts: [], penalties: [], notes: [], score },
  };
}
