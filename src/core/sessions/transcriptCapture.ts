import type { Extractor } from '../extraction/llmExtractor';
import { redactSecrets } from '../memory/redaction';
import { rememberInTransaction } from '../memory/remember';
import type { RememberDeps } from '../memory/remember';
import type { MemoryStore } from '../store/storeTypes';
import { heuristicSummary } from './sessionEnd';
import type { SessionCapture } from './sessionEnd';

/** Session facts are capped at this importance. */
export const SESSION_FACT_MAX_IMPORTANCE = 0.5;

/**
 * Session-end capture through the write path: the extractor (LLM with heuristic fallback, or the
 * heuristic alone) reads the transcript; every fact becomes a memory via remember (redaction,
 * dedup, embed and extract jobs — the extract job builds its graph structure), tagged with the
 * session key. The summary is the heuristic one (first request and turn count).
 */
export function createTranscriptCapture(store: MemoryStore, extractor: Extractor, rememberDeps: RememberDeps): SessionCapture {
  return {
    async capture(input) {
      // Stores written before turns were redacted may still hold raw turns: redact again before
      // the text can reach an extractor, which may be a remote LLM.
      const transcript = redactSecrets(input.transcript, rememberDeps.redaction).text;
      const userText = transcript.split('\n').filter((l) => l.startsWith('User: ')).map((l) => l.slice(6)).join('\n');
      const result = await extractor.extract(userText || transcript);
      const facts = result.payload.facts ?? [];
      const ids = await store.write('session-capture', (db) => {
        const out: string[] = [];
        for (const f of facts) {
          const r = rememberInTransaction(db, {
            content: f.content, type: f.type, sourceType: 'session_end', sessionKey: input.sessionKey, agentId: input.agentId,
            importance: Math.min(SESSION_FACT_MAX_IMPORTANCE, f.importance), confidence: f.confidence,
            ...(input.project !== null ? { project: input.project } : {}),
          }, { ...rememberDeps, enqueue: { ...rememberDeps.enqueue, hints: false } });
          if (!r.duplicate) out.push(...r.chunkIds);
        }
        return out;
      });
      return { summary: heuristicSummary(transcript), memoryIds: ids };
    },
  };
}
