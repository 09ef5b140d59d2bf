/**
 * Recall for a partial replica, or a full one still catching up on its pull (docs/team.md
 * "Partial replicas"): local recall and the team
 * server's search (teamServerRecall.ts) run side by side, sharing one query embedding; the
 * server's hits the store does not hold join the ranked results on the same score scale, and the
 * ones returned are replicated into the store afterwards. The engine calls this for every host
 * (CLI recall and recall --stdin, @memory, the LM tools, the Knowledge panel playground).
 *
 * Score scale: a server hit's score is local recall's fusion (shapeScore: alpha · semantic +
 * (1 − alpha) · lexical, the same minScore), computed on the server (serverSearch.ts). Local
 * candidates then pass the recall stages (graph boost, recency, rerank…), which need the local
 * graph and do not run on server hits; once replicated, a memory is ranked by the full pipeline.
 */
import type { QueryEmbedder, RecallDeps, RecallRequest } from '../recall/recallRequest';
import { effectiveConfig, validateRequest } from '../recall/recallRequest';
import type { RecallOutcome } from '../recall/recallService';
import { toResult } from '../recall/recallService';
import type { Candidate, ChannelScores } from '../recall/recallTypes';
import type { ServerSearchHit } from './serverSearch';
import type { ServerRecallAnswer, TeamServerRecall } from './teamServerRecall';

/** One embedding of the query for both local recall and the server's vector arm. */
export function sharedQueryEmbedder(inner: QueryEmbedder): QueryEmbedder {
  let memo: { text: string; result: Promise<Float32Array[]> } | undefined;
  return {
    id: inner.id, dims: inner.dims,
    embed: (texts) => {
      if (texts.length !== 1) return inner.embed(texts);
      const text = texts[0] as string;
      if (memo?.text !== text) memo = { text, result: inner.embed([text]) };
      return memo.result;
    },
  };
}

/** The explain note of a server hit. */
export function serverHitNote(hit: Pick<ServerSearchHit, 'author' | 'mine'>): string {
  return `from the team server, shared by ${hit.mine ? 'you' : hit.author}`;
}

function serverCandidate(hit: ServerSearchHit): Candidate {
  const channels: ChannelScores = { lexical: hit.channels.lexical, semantic: hit.channels.semantic, hint: 0, traversal: 0 };
  return {
    id: hit.id, content: hit.content, type: hit.type, createdAt: hit.createdAt, sourceId: `team:${hit.id}`, importance: 0.5, score: hit.score, channels,
    explain: {
      channels: { ...channels }, fused: hit.score, sources: [...hit.sources],
      ...(hit.termsHit !== undefined ? { termsHit: hit.termsHit, termCount: hit.termCount } : {}),
      boosts: [], penalties: [], notes: [serverHitNote(hit)], score: hit.score,
    },
  };
}

/** Local results and the server's hits not held here, merged by score (local first on a tie), cut to the render width. */
export function mergeServerHits<T extends RecallOutcome>(out: T, answer: ServerRecallAnswer, req: RecallRequest, limit: number, withExplain: boolean): { outcome: T; fromServer: string[] } {
  const extra = answer.hits.map(serverCandidate).filter((c) => !req.filter || req.filter(c));
  const merged = [...out.results.map((c, i) => ({ c, local: 0, i })), ...extra.map((c, i) => ({ c, local: 1, i }))]
    .sort((a, b) => b.c.score - a.c.score || a.local - b.local || a.i - b.i)
    .slice(0, limit)
    .map((x) => x.c);
  const serverIds = new Set(extra.map((c) => c.id));
  const fromServer = merged.filter((c) => serverIds.has(c.id)).map((c) => c.id);
  const best = Math.max(0, ...merged.map((c) => c.score));
  const outcome = { ...out, results: merged, items: merged.map((c) => toResult(c, withExplain, best)), notes: [...out.notes, ...answer.notes] };
  return { outcome, fromServer };
}

/**
 * Runs `local` (the engine's recall, tracked or not) beside the server search and merges them.
 * Bookkeeping (access counts, session rows) stays that of the local results: a server hit has no
 * local row until it is replicated.
 */
export async function recallConsultingTeam<T extends RecallOutcome>(req: RecallRequest, deps: RecallDeps, team: TeamServerRecall, withExplain: boolean, local: (deps: RecallDeps) => Promise<T>): Promise<T> {
  validateRequest(req);
  // Hits an earlier recall is still replicating must be in the store before local recall reads it,
  // or this recall would see them neither locally nor (held by then) from the server.
  await team.flush();
  const cfg = effectiveConfig(deps.config, req);
  const embedder = deps.embedder ? sharedQueryEmbedder(deps.embedder) : undefined;
  const shared: RecallDeps = embedder ? { ...deps, embedder } : deps;
  const server = team.search(req, cfg, req.only === 'lexical' ? undefined : embedder);
  const [out, answer] = await Promise.all([local(shared), server]);
  const { outcome, fromServer } = mergeServerHits(out, answer, req, req.limit ?? cfg.limit, withExplain);
  return { ...outcome, teamReplicated: team.replicate(fromServer, answer.projects) };
}
