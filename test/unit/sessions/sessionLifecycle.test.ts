import { strict as assert } from 'node:assert';
import { isoFromMs } from '../../../src/core/clock';
import { isMemoryError } from '../../../src/core/errors';
import { pinEntity } from '../../../src/core/pinning/pinning';
import { resolveHintsConfig } from '../../../src/core/config/hintsConfig';
import { resolveSessionConfig } from '../../../src/core/config/sessionConfig';
import { addAspect, addAttribute, addEntity, addMemory, openTestStore } from '../feedback/graphFixture';
import { makeService } from './sessionFixture';
import { STALE_ENDING_MS } from '../../../src/core/sessions/sessionService';

const MIN = 60_000;

describe('session lifecycle', () => {
  it('records every candidate with rank and was_injected, injecting within the token budget', async () => {
    const { store, clock } = await openTestStore();
    await store.write('t', (db) => {
      addMemory(db, clock.now(), { content: 'short one', importance: 0.9 });
      addMemory(db, clock.now(), { content: 'x'.repeat(400), importance: 0.8 });
      addMemory(db, clock.now(), { content: 'another short', importance: 0.7 });
      addMemory(db, clock.now(), { content: 'unimportant', importance: 0.1 });
    });
    const { service } = makeService(store, clock, { session: resolveSessionConfig({ maxInjectTokens: 50 }) });
    const r = await service.start({ sessionKey: 's1', project: '/home/dev/app' });
    assert.equal(r.created, true);
    assert.equal(r.candidateCount, 3, 'scores at or below 0.2 are not candidates');
    assert.deepEqual(r.injected.map((m) => m.content), ['short one', 'another short']);
    const rows = store.read((db) => db.all<{ rank: number; was_injected: number; source: string }>('SELECT rank, was_injected, source FROM session_memories WHERE session_key = ? ORDER BY rank', ['s1']));
    assert.deepEqual(rows.map((x) => [x.rank, x.was_injected]), [[0, 1], [1, 0], [2, 1]]);
    const again = await service.start({ sessionKey: 's1', project: '/home/dev/app' });
    assert.equal(again.created, false);
    assert.deepEqual(again.injected.map((m) => m.content), ['short one', 'another short']);
    await store.close();
  });

  it('makes pinned entities focal and adds their memories as traversal candidates', async () => {
    const { store, clock } = await openTestStore();
    const m = await store.write('t', (db) => {
      const e = addEntity(db, clock.now(), 'Payments');
      const a = addAspect(db, clock.now(), e, 'api');
      const old = addMemory(db, clock.now() - 400 * 86_400_000, { content: 'payments api uses idempotency keys', importance: 0.5 });
      addAttribute(db, clock.now(), e, a, old, { importance: 0.7 });
      return old;
    });
    await store.write('pin', (db) => pinEntity(db, 'default', 'Payments', isoFromMs(clock.now())));
    const { service } = makeService(store, clock);
    const r = await service.start({ sessionKey: 's1', project: '/somewhere/else' });
    assert.equal(r.focal.pinnedEntityIds.length, 1);
    assert.deepEqual(r.injected.map((x) => [x.id, x.source]), [[m, 'ka_traversal_pinned']]);
    await store.close();
  });

  it('ends explicitly: proxy continuity row, relevance per memory, telemetry logged', async () => {
    const { store, clock } = await openTestStore();
    const m = await store.write('t', (db) => addMemory(db, clock.now(), { content: 'the build uses esbuild', importance: 0.9 }));
    const { service, logger, telemetry } = makeService(store, clock);
    await service.start({ sessionKey: 's1' });
    await service.turn('s1', 'user', 'why does esbuild break the build?');
    const report = await service.end('s1');
    assert.ok(report);
    assert.equal(report.continuity?.method, 'proxy');
    const score = store.read((db) => db.get<{ method: string; memories_recalled: number; reasoning: string }>('SELECT method, memories_recalled, reasoning FROM session_scores WHERE session_key = ?', ['s1']));
    assert.equal(score?.method, 'proxy');
    assert.equal(score?.memories_recalled, 1);
    const rel = store.read((db) => db.get<{ relevance_score: number }>('SELECT relevance_score FROM session_memories WHERE memory_id = ?', [m]));
    assert.ok((rel?.relevance_score ?? 0) > 0.5);
    assert.ok(logger.lines.some((l) => l.level === 'info' && /session end s1: feedbackAspectsUpdated=0 feedbackFtsConfirmations=0 feedbackDecayedAspects=0 feedbackPropagatedAttributes=0/.test(l.message)));
    assert.ok(telemetry.snapshot().lastRunAt);
    assert.equal(store.read((db) => db.get<{ status: string }>('SELECT status FROM sessions WHERE session_key = ?', ['s1']))?.status, 'ended');
    assert.equal(await service.end('s1'), undefined, 'ending twice does nothing');
    await assert.rejects(service.turn('s1', 'user', 'late'), (e: unknown) => isMemoryError(e, 'E_INVALID_INPUT'));
    await store.close();
  });

  it('writes a session_scores row even without session_memories data', async () => {
    const { store, clock } = await openTestStore();
    const { service } = makeService(store, clock);
    await service.start({ sessionKey: 'empty' });
    const r = await service.end('empty');
    assert.equal(r?.continuity?.injected, 0);
    assert.equal(store.read((db) => db.get<{ n: number }>('SELECT COUNT(*) AS n FROM session_scores WHERE session_key = ?', ['empty']))?.n, 1);
    await store.close();
  });

  it('uses the LLM score when an LLM answers, mapping prefixes back to ids', async () => {
    const { store, clock } = await openTestStore();
    const m = await store.write('t', (db) => addMemory(db, clock.now(), { id: 'abcdef12-0000-4000-8000-000000000001', content: 'deploys run on fridays', importance: 0.9 }));
    const llm = { label: 'fake', complete: async () => '<think>hmm</think>```json\n{"score": 1.4, "per_memory": [{"id": "abcdef12", "relevance": 0.8}]}\n```' };
    const { service } = makeService(store, clock, { llm });
    await service.start({ sessionKey: 's1' });
    const r = await service.end('s1');
    assert.deepEqual([r?.continuity?.method, r?.continuity?.score], ['llm', 1]);
    assert.equal(store.read((db) => db.get<{ relevance_score: number }>('SELECT relevance_score FROM session_memories WHERE memory_id = ?', [m]))?.relevance_score, 0.8);
    await store.close();
  });

  it('falls back to the proxy when the LLM fails', async () => {
    const { store, clock } = await openTestStore();
    await store.write('t', (db) => addMemory(db, clock.now(), { importance: 0.9 }));
    const llm = { label: 'broken', complete: async () => { throw new Error('boom'); } };
    const { service } = makeService(store, clock, { llm });
    await service.start({ sessionKey: 's1' });
    const r = await service.end('s1');
    assert.equal(r?.continuity?.method, 'proxy');
    await store.close();
  });

  it('ends idle sessions on sweep and supersedes the previous session of the same project', async () => {
    const { store, clock } = await openTestStore();
    const { service } = makeService(store, clock);
    await service.start({ sessionKey: 'a', project: 'p' });
    const b = await service.start({ sessionKey: 'b', project: 'p' });
    assert.deepEqual(b.ended.map((r) => [r.sessionKey, r.reason]), [['a', 'superseded']]);
    await service.start({ sessionKey: 'c', project: 'q' });
    clock.advance(31 * MIN);
    const swept = await service.sweep();
    assert.deepEqual(swept.map((r) => [r.sessionKey, r.reason]).sort(), [['b', 'idle'], ['c', 'idle']]);
    await store.close();
  });

  it('resumes a half-finished end where it stopped', async () => {
    const { store, clock } = await openTestStore();
    const { service } = makeService(store, clock);
    await service.start({ sessionKey: 's1' });
    await store.write('crash', (db) => db.run("UPDATE sessions SET status = 'ending', end_step = 'continuity', end_reason = 'shutdown' WHERE session_key = 's1'"));
    const { service: next } = makeService(store, clock);
    assert.deepEqual(await next.sweep(), [], 'a fresh ending may belong to a live window: left alone');
    clock.advance(STALE_ENDING_MS + 1);
    const [r] = await next.sweep();
    assert.equal(r?.resumedFrom, 'continuity');
    assert.equal(r?.continuity, undefined, 'continuity was already done');
    assert.ok(r?.predictor);
    assert.equal(store.read((db) => db.get<{ status: string }>("SELECT status FROM sessions WHERE session_key = 's1'"))?.status, 'ended');
    await store.close();
  });

  it('ends its own sessions at shutdown', async () => {
    const { store, clock } = await openTestStore();
    const { service } = makeService(store, clock);
    await service.start({ sessionKey: 's1' });
    const reports = await service.shutdown();
    assert.deepEqual(reports.map((r) => r.reason), ['shutdown']);
    await store.close();
  });

  it('captures the transcript and enqueues hints jobs for new memories when hints are enabled', async () => {
    const { store, clock } = await openTestStore();
    const capture = {
      capture: async (input: { sessionKey: string; transcript: string }) => {
        const id = await store.write('cap', (db) => addMemory(db, clock.now(), { content: `captured: ${input.transcript.slice(0, 20)}` }));
        return { summary: 'a summary', memoryIds: [id] };
      },
    };
    const { service } = makeService(store, clock, { capture, hints: resolveHintsConfig({ enabled: true }), session: resolveSessionConfig({ minTranscriptChars: 0 }) });
    await service.start({ sessionKey: 's1' });
    await service.turn('s1', 'user', 'remember that we deploy on fridays');
    const r = await service.end('s1');
    assert.equal(r?.capture?.memoryIds.length, 1);
    assert.equal(r?.hintsEnqueued, 1);
    assert.equal(store.read((db) => db.get<{ summary: string }>("SELECT summary FROM sessions WHERE session_key = 's1'"))?.summary, 'a summary');
    await store.close();
  });

  it('lets the learned ranker order candidates once trained on enough sessions', async () => {
    const { store, clock } = await openTestStore();
    await store.write('t', (db) => { addMemory(db, clock.now(), { importance: 0.9 }); addMemory(db, clock.now(), { importance: 0.8 }); });
    const { service } = makeService(store, clock, { feedbackOver: { predictorMinSessions: 2 } });
    const live: boolean[] = [];
    for (let i = 0; i < 3; i++) {
      const s = await service.start({ sessionKey: `p${i}` });
      live.push(s.predictorLive);
      await service.end(`p${i}`);
    }
    assert.deepEqual(live, [false, false, true]);
    const scored = store.read((db) => db.get<{ n: number }>("SELECT COUNT(*) AS n FROM session_memories WHERE session_key = 'p2' AND predictor_score IS NOT NULL"))?.n;
    assert.equal(scored, 2);
    const { service: off } = makeService(store, clock, { feedbackOver: { predictorMinSessions: 2, predictorEnabled: false } });
    assert.equal((await off.start({ sessionKey: 'p3' })).predictorLive, false);
    await store.close();
  });
});
