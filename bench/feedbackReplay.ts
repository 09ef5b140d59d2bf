/**
 * The feedback loop measured on use (docs/recall-design.md, "Fifth round: feedback replay"): each
 * LoCoMo development conversation's questions are replayed in order as @memory sessions on one
 * copy of its store — session start with the question, a tracked recall of 10 (injected, lexical
 * hits not counted as use, as @memory asks), the question as the user's turn, as the assistant's
 * turn the text of the gold evidence turns the recall showed (a quote: no evidence of use since
 * issue 25), the user's 👍 on the evidence shown (👎 on the top three when none was), then session end (continuity proxy, aspect feedback, learned ranker,
 * entity health: everything the loop runs without a language model). A second copy answers the
 * same questions with no sessions at all. The figures compare the later half of the questions:
 * recall R@5/R@10 of the answer's recall, and evidence recall of what the session start injected.
 *
 *   AGENT_MEMORY_LOCOMO=... node --require tsx/cjs bench/feedbackReplay.ts [--quick] [--no-actions] [--learned]
 * --learned turns on the learnedUse recall stage (the loop's evidence in recall) on both sides.
 * Writes bench/results/feedbackReplay[-learned][-quick].json. Uses the store cache of bench/locomo.ts.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import type { MemoryEngine } from '../src/core/engine/memoryEngine';
import type { MemoryStore } from '../src/core/store/storeTypes';
import { BenchClock, benchSettings } from './benchEngine';
import { aggregate, recallAtK, scoreQuestion } from './devset';
import type { QuestionScore } from './devset';
import { cachedLocomoStore, openLocomoBench } from './locomo';
import type { LocomoQuestion } from './locomo';

const QUICK = process.argv.includes('--quick');
/** 'actions' (default): 👍 / 👎 as a user would give them; 'none': the answer's own words only (a quote: no evidence). */
const FEEDBACK = process.argv.includes('--no-actions') ? 'none' : 'actions';
/** --learned: recall reads the loop's evidence (the learnedUse stage, off by default) on both sides. */
const LEARNED = process.argv.includes('--learned');
const SETTINGS = LEARNED ? benchSettings({}, { learnedUse: { enabled: true } }) : undefined;

interface Side { recall: QuestionScore[]; injected: number[]; injectedAt10: number[]; injectedCount: number[] }

const side = (): Side => ({ recall: [], injected: [], injectedAt10: [], injectedCount: [] });

/** Maps memory ids to the dia ids they hold. */
type Sources = (id: string) => readonly string[];

async function askLater(engine: MemoryEngine<MemoryStore>, q: LocomoQuestion, sources: Sources, out: Side, withSession: boolean): Promise<{ key: string | undefined; ids: string[] }> {
  // The session start is measured on both sides: only the "with" side has earlier ended sessions.
  const started = await engine.loop.sessions.start({ harness: 'vscode-chat', project: null, query: q.query });
  out.injected.push(recallAtK(started.injected.flatMap((m) => sources(m.id)), q.gold, Math.max(1, started.injected.length)));
  // The first ten injected, in the order the session start ranked them (the learned ranker's order when live).
  out.injectedAt10.push(recallAtK(started.injected.flatMap((m) => sources(m.id)), q.gold, 10));
  out.injectedCount.push(started.injected.length);
  const r = await engine.recallDetailed({ query: q.query, limit: 10, ...(withSession ? { session: started.sessionKey, injected: true, countLexicalHits: false } : {}) }, { track: withSession, explain: false });
  out.recall.push(scoreQuestion(q, r.items.flatMap((x) => sources(x.id))));
  if (!withSession) await engine.loop.sessions.end(started.sessionKey, 'explicit').catch(() => undefined);
  return { key: started.sessionKey, ids: r.items.map((x) => x.id) };
}

/** One question as a whole @memory session: recall, turns, end (the feedback loop runs). */
async function session(engine: MemoryEngine<MemoryStore>, q: LocomoQuestion, sources: Sources, store: MemoryStore, measured: Side | undefined): Promise<void> {
  let key: string, ids: string[];
  if (measured) ({ key, ids } = await askLater(engine, q, sources, measured, true) as { key: string; ids: string[] });
  else {
    const started = await engine.loop.sessions.start({ harness: 'vscode-chat', project: null, query: q.query });
    key = started.sessionKey;
    const r = await engine.recallDetailed({ query: q.query, limit: 10, session: key, injected: true, countLexicalHits: false }, { track: true, explain: false });
    ids = r.items.map((x) => x.id);
  }
  await engine.loop.sessions.turn(key, 'user', q.query);
  const gold = new Set(q.gold);
  const used = ids.filter((id) => sources(id).some((s) => gold.has(s)));
  // The answer quotes the gold evidence the recall showed: a quote is no evidence of use
  // (answerUsage.ts), so the answer itself confirms nothing, as with a model that copies memories.
  const contents = store.read((db) => used.map((id) => db.get<{ content: string }>('SELECT content FROM memories WHERE id = ?', [id])?.content ?? ''));
  const answer = contents.filter(Boolean).join('\n');
  if (answer) await engine.loop.sessions.turn(key, 'assistant', answer);
  await store.flushDeferred?.();
  // The user's explicit action (userFeedback.ts): 👍 on an answer that showed the evidence (it cites
  // the evidence), 👎 on one that did not (it cites the top three it showed).
  if (FEEDBACK === 'actions') {
    if (used.length) await engine.loop.sessions.userFeedback({ sessionKey: key, memoryIds: used, action: 'helpful' });
    else if (ids.length) await engine.loop.sessions.userFeedback({ sessionKey: key, memoryIds: ids.slice(0, 3), action: 'unhelpful' });
  }
  await engine.loop.sessions.end(key, 'explicit');
}

async function main(): Promise<void> {
  const loaded = openLocomoBench();
  if ('absent' in loaded) { console.log(loaded.absent); return; }
  const { model, embedder } = loaded;
  const perConversation: Record<string, unknown> = {};
  const all = { with: side(), without: side() };
  const t0 = Date.now();
  try {
    for (const conv of loaded.conversations) {
      const questions = QUICK ? conv.questions.filter((_, i) => i % 4 === 0) : conv.questions;
      const half = Math.floor(questions.length / 2);
      const runs = { with: side(), without: side() };
      for (const which of ['with', 'without'] as const) {
        const clock = new BenchClock();
        const built = await cachedLocomoStore(conv, embedder, clock, SETTINGS);
        const sources: Sources = (id) => built.sourcesById.get(id) ?? [id];
        const start = Date.parse(conv.endsAt) + 86_400_000;
        try {
          for (let i = 0; i < questions.length; i++) {
            const q = questions[i] as LocomoQuestion;
            // One question a minute, after the conversation: sessions end in order, none idles out.
            clock.set(start + i * 60_000);
            const later = i >= half;
            if (which === 'with') await session(built.engine, q, sources, built.store, later ? runs.with : undefined);
            else if (later) await askLater(built.engine, q, sources, runs.without, false);
          }
          if (which === 'with') {
            const state = built.store.read((db) => ({
              sessions: db.get<{ n: number }>("SELECT COUNT(*) AS n FROM sessions WHERE status = 'ended'")?.n ?? 0,
              aspectChanges: db.get<{ n: number }>('SELECT COUNT(*) AS n FROM aspect_feedback_log')?.n ?? 0,
              aspectChangesByKind: Object.fromEntries(db.all<{ kind: string; n: number }>('SELECT kind, COUNT(*) AS n FROM aspect_feedback_log GROUP BY kind ORDER BY kind').map((r) => [r.kind, r.n])),
              paidOffRows: db.get<{ n: number }>('SELECT COUNT(*) AS n FROM session_memories WHERE fts_hit_count > 0 OR COALESCE(relevance_score, 0) >= 0.5')?.n ?? 0,
              comparisons: db.get<{ n: number }>('SELECT COUNT(*) AS n FROM predictor_comparisons')?.n ?? 0,
              entitiesWithHealth: db.get<{ n: number }>('SELECT COUNT(DISTINCT focal_entity_id) AS n FROM predictor_comparisons WHERE focal_entity_id IS NOT NULL')?.n ?? 0,
              predictorSessions: db.get<{ n: number }>('SELECT COALESCE(MAX(sessions_trained), 0) AS n FROM predictor_models')?.n ?? 0,
            }));
            console.log(`${conv.id}: replayed ${questions.length} questions as sessions; ${JSON.stringify(state)}`);
            perConversation[`${conv.id}-state`] = state;
          }
        } finally {
          await built.engine.close();
        }
      }
      const fig = (s: Side): Record<string, number> => {
        const a = aggregate(s.recall).overall;
        const mean = (xs: number[]): number => xs.length ? xs.reduce((x, y) => x + y, 0) / xs.length : 0;
        return { questions: s.recall.length, recallAt5: Number(a.recallAt5.toFixed(4)), recallAt10: Number(a.recallAt10.toFixed(4)), injectedRecall: Number(mean(s.injected).toFixed(4)), injectedAt10: Number(mean(s.injectedAt10).toFixed(4)), injectedMean: Number(mean(s.injectedCount).toFixed(2)) };
      };
      perConversation[conv.id] = { with: fig(runs.with), without: fig(runs.without) };
      console.log(`${conv.id} later ${runs.with.recall.length} questions: with feedback ${JSON.stringify(fig(runs.with))}; without ${JSON.stringify(fig(runs.without))}`);
      for (const k of ['with', 'without'] as const) { all[k].recall.push(...runs[k].recall); all[k].injected.push(...runs[k].injected); all[k].injectedAt10.push(...runs[k].injectedAt10); all[k].injectedCount.push(...runs[k].injectedCount); }
    }
    const total = (s: Side): Record<string, number> => {
      const a = aggregate(s.recall).overall;
      const mean = (xs: number[]): number => xs.length ? xs.reduce((x, y) => x + y, 0) / xs.length : 0;
      return { questions: s.recall.length, recallAt5: Number(a.recallAt5.toFixed(4)), recallAt10: Number(a.recallAt10.toFixed(4)), injectedRecall: Number(mean(s.injected).toFixed(4)), injectedAt10: Number(mean(s.injectedAt10).toFixed(4)), injectedMean: Number(mean(s.injectedCount).toFixed(2)) };
    };
    const summary = { with: total(all.with), without: total(all.without) };
    console.log(`all later questions: with feedback ${JSON.stringify(summary.with)}; without ${JSON.stringify(summary.without)} (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
    mkdirSync(join(__dirname, 'results'), { recursive: true });
    writeFileSync(join(__dirname, 'results', `feedbackReplay${LEARNED ? '-learned' : ''}${QUICK ? '-quick' : ''}.json`), JSON.stringify({ date: new Date().toISOString(), loadAverage: loadavg().map((x) => Number(x.toFixed(2))), quick: QUICK, feedback: FEEDBACK, learnedUse: LEARNED, summary, perConversation }, null, 2) + '\n');
    console.log(`wrote bench/results/feedbackReplay${LEARNED ? '-learned' : ''}${QUICK ? '-quick' : ''}.json`);
  } finally {
    await model.dispose();
  }
}

if (require.main === module) main().catch((e: unknown) => { console.error(e); process.exitCode = 1; });
