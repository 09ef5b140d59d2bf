import { strict as assert } from 'node:assert';
import { markMemoryWrongInTransaction } from '../../../src/core/capture/captureCorrection';
import { answerUsageVerdicts, withoutQuotes } from '../../../src/core/feedback/answerUsage';
import { citedMemoryIds, parseFeedbackAction } from '../../../src/core/feedback/userFeedback';
import { MemoryError } from '../../../src/core/errors';
import type { MemoryStore } from '../../../src/core/store/storeTypes';
import type { ManualClock } from '../../../src/core/clock';
import { makeService } from '../sessions/sessionFixture';
import { addAspect, addAttribute, addEntity, addMemory, addSessionMemory, openTestStore } from './graphFixture';

const BROKER = 'Order events go through RabbitMQ on cluster mq-2, port 5672.';
const CACHE = 'The session cache is Redis 7 behind the api-gateway.';
const STYLE = 'Commit messages use the imperative mood.';

interface World { store: MemoryStore; clock: ManualClock; ids: { broker: string; cache: string }; aspects: { broker: string; cache: string } }

/** A chat session (the @memory harness) that showed two memories, each supporting one aspect at 0.5. */
async function world(): Promise<World & { service: ReturnType<typeof makeService>['service']; telemetry: ReturnType<typeof makeService>['telemetry']; key: string }> {
  const { store, clock } = await openTestStore();
  const now = clock.now();
  const seeded = await store.write('seed', (db) => {
    const mq = addEntity(db, now, 'RabbitMQ', { type: 'tool' });
    const redis = addEntity(db, now, 'Redis', { type: 'tool' });
    const brokerAspect = addAspect(db, now, mq, 'usage', 0.5);
    const cacheAspect = addAspect(db, now, redis, 'usage', 0.5);
    const broker = addMemory(db, now, { content: BROKER });
    const cache = addMemory(db, now, { content: CACHE });
    addAttribute(db, now, mq, brokerAspect, broker);
    addAttribute(db, now, redis, cacheAspect, cache);
    return { ids: { broker, cache }, aspects: { broker: brokerAspect, cache: cacheAspect } };
  });
  const { service, telemetry } = makeService(store, clock);
  const started = await service.start({ harness: 'vscode-chat', project: null, sessionKey: `chat-${seeded.ids.broker.slice(0, 9)}` });
  // What the @memory recall recorded: both memories shown (injected), no keyword hits counted.
  await store.write('shown', (db) => {
    db.run('DELETE FROM session_memories WHERE session_key = ?', [started.sessionKey]);
    addSessionMemory(db, now, started.sessionKey, seeded.ids.broker, { rank: 0, effective: 0.6 });
    addSessionMemory(db, now, started.sessionKey, seeded.ids.cache, { rank: 1, effective: 0.7 });
  });
  await service.turn(started.sessionKey, 'user', 'which message broker handles our queues?');
  return { store, clock, ...seeded, service, telemetry, key: started.sessionKey };
}

const weight = (store: MemoryStore, id: string): number => store.read((db) => db.get<{ weight: number }>('SELECT weight FROM entity_aspects WHERE id = ?', [id])?.weight ?? NaN);
const evidence = (store: MemoryStore, key: string, id: string) => store.read((db) => db.get<{ fts_hit_count: number; relevance_score: number | null }>('SELECT fts_hit_count, relevance_score FROM session_memories WHERE session_key = ? AND memory_id = ?', [key, id]));

describe('feedback: answer evidence and explicit user actions', function () {
  this.timeout(20_000);
  it('cuts verbatim quotes of shown memories out of an answer and keeps the model\'s own words', () => {
    const own = withoutQuotes(`You use RabbitMQ. As memory [1] says: "${BROKER}"`, [BROKER, CACHE]);
    assert.match(own, /You use RabbitMQ\./);
    assert.doesNotMatch(own, /mq-2|5672|cluster/);
    assert.equal(withoutQuotes('Orders are on cluster mq-2.', [BROKER]).trim(), 'Orders are on cluster mq-2.', 'four shared words are not a quote');
    assert.equal(withoutQuotes(`echo: [1] ${STYLE}`, [STYLE]).replace(/\W+/g, ' ').trim(), 'echo 1', 'a memory shorter than five words is a quote when all of it is there');
  });

  it('counts a memory used only when the answer\'s own words carry its distinctive tokens beyond the question\'s', () => {
    const shown = [{ id: 'b', content: BROKER }, { id: 'c', content: CACHE }];
    const ask = 'which message broker handles our queues?';
    const used = (answer: string, question = ask) => answerUsageVerdicts(shown, answer, question).filter((v) => v.used).map((v) => v.memoryId);
    assert.deepEqual(used('Your order events go to RabbitMQ on the mq-2 cluster [1].'), ['b'], 'paraphrase with its names: used');
    assert.deepEqual(used(`Memories:\n[1] ${BROKER}\n[2] ${CACHE}\nQuestion: ${ask}`), [], 'an answer that only quotes (or echoes the prompt) uses nothing');
    assert.deepEqual(used('I do not know which broker handles the queues.'), [], 'shown but not used');
    assert.deepEqual(used('It is RabbitMQ.', 'is RabbitMQ our broker?'), [], 'a name the user already said is no evidence');
  });

  it('a shown-but-unused memory and a quoted one are not paid off at session end; no weight moves', async () => {
    const w = await world();
    try {
      await w.service.turn(w.key, 'assistant', `echo: Memories:\n[1] ${BROKER}\n[2] ${CACHE}`);
      const end = await w.service.end(w.key);
      assert.equal(end?.continuity?.method, 'usage');
      assert.equal(end?.predictor?.paidOff, 0, 'nothing paid off');
      assert.equal(end?.feedback?.feedbackAspectsUpdated, 0);
      assert.equal(weight(w.store, w.aspects.broker), 0.5);
      assert.equal(weight(w.store, w.aspects.cache), 0.5);
    } finally { await w.store.close(); }
  });

  it('an answer in its own words pays the memory off: aspect raised and predictor compared at session end', async () => {
    const w = await world();
    try {
      await w.service.turn(w.key, 'assistant', 'The broker is RabbitMQ, on the mq-2 cluster [1].');
      assert.ok((evidence(w.store, w.key, w.ids.broker)?.fts_hit_count ?? 0) > 0);
      assert.equal(evidence(w.store, w.key, w.ids.cache)?.fts_hit_count, 0);
      const end = await w.service.end(w.key);
      assert.equal(end?.predictor?.paidOff, 1);
      assert.ok(end?.predictor?.comparisons && end.predictor.comparisons > 0, 'a predictor comparison was written');
      assert.ok(weight(w.store, w.aspects.broker) > 0.5, 'raised');
      assert.equal(weight(w.store, w.aspects.cache), 0.5);
    } finally { await w.store.close(); }
  });

  it('a note the user typed earlier in the chat (/remember) still counts: only the question this answer responds to is the user\'s words', async () => {
    const { store, clock } = await openTestStore();
    try {
      const cache = await store.write('seed', (db) => addMemory(db, clock.now(), { content: CACHE }));
      const { service, logger } = makeService(store, clock);
      const evidenceLines = (): string[] => logger.lines.map((l) => l.message).filter((m) => /answer evidence/.test(m));
      const { sessionKey } = await service.start({ harness: 'vscode-chat', project: null, sessionKey: 'chat-remember-then-ask' });
      await store.write('nothing shown at start', (db) => db.run('DELETE FROM session_memories WHERE session_key = ?', [sessionKey]));
      // As @memory records it: the /remember request is a user turn with no answer turn (it composes nothing).
      await service.turn(sessionKey, 'user', `/remember ${CACHE}`);
      await service.turn(sessionKey, 'user', 'where does the session cache live?');
      await service.turn(sessionKey, 'assistant', 'Nothing in memory says.');
      assert.deepEqual(evidenceLines(), [], 'an answer that showed nothing logs no evidence line');
      await store.write('shown', (db) => addSessionMemory(db, clock.now(), sessionKey, cache, { rank: 0, effective: 0.7 }));
      await service.turn(sessionKey, 'user', 'where does the session cache live?');
      await service.turn(sessionKey, 'assistant', 'It runs on Redis (version 7); the api-gateway sits in front of it [1].');
      assert.ok((evidence(store, sessionKey, cache)?.fts_hit_count ?? 0) > 0, 'used: Redis and api-gateway are not in the question, though the /remember said them');
      assert.deepEqual(evidenceLines(), ["answer evidence: 1 of 1 shown memories used in the answer's own words"]);
    } finally { await store.close(); }
  });

  it('👍 raises the cited memory\'s aspects at once and makes it paid off at session end', async () => {
    const w = await world();
    try {
      await w.service.turn(w.key, 'assistant', `echo: [2] ${CACHE}`);
      const r = await w.service.userFeedback({ sessionKey: w.key, memoryIds: [w.ids.cache], action: 'helpful' });
      assert.deepEqual({ rows: r.sessionRows, up: r.aspectsRaised, down: r.aspectsLowered }, { rows: 1, up: 1, down: 0 });
      assert.ok(Math.abs(weight(w.store, w.aspects.cache) - 0.52) < 1e-9);
      assert.equal(weight(w.store, w.aspects.broker), 0.5);
      assert.equal(w.telemetry.snapshot().feedbackAspectsUpdated, 1);
      const log = w.store.read((db) => db.all<{ kind: string; session_key: string }>('SELECT kind, session_key FROM aspect_feedback_log'));
      assert.deepEqual(log, [{ kind: 'user+', session_key: w.key }]);
      const end = await w.service.end(w.key);
      assert.equal(end?.predictor?.paidOff, 1);
      const health = w.store.read((db) => db.all<{ focal_entity_name: string | null }>('SELECT focal_entity_name FROM predictor_comparisons ORDER BY focal_entity_name'));
      assert.ok(health.some((h) => h.focal_entity_name === 'Redis'), 'an entity comparison (entity health) for the memory the user marked');
    } finally { await w.store.close(); }
  });

  it('👎 lowers the aspects and overrides an answer\'s evidence: not paid off at session end', async () => {
    const w = await world();
    try {
      await w.service.turn(w.key, 'assistant', 'The broker is RabbitMQ, on the mq-2 cluster [1].');
      const r = await w.service.userFeedback({ sessionKey: w.key, memoryIds: [w.ids.broker], action: 'unhelpful' });
      assert.equal(r.aspectsLowered, 1);
      assert.ok(Math.abs(weight(w.store, w.aspects.broker) - 0.48) < 1e-9);
      assert.deepEqual(evidence(w.store, w.key, w.ids.broker), { fts_hit_count: 0, relevance_score: 0 });
      const end = await w.service.end(w.key);
      assert.equal(end?.predictor?.paidOff, 0);
      assert.ok(weight(w.store, w.aspects.broker) < 0.5, 'session end did not raise it back');
    } finally { await w.store.close(); }
  });

  it('opening a cited memory counts as use; feedback off moves no weight but keeps the evidence', async () => {
    const { store, clock } = await openTestStore();
    try {
      const now = clock.now();
      const { m, a } = await store.write('seed', (db) => {
        const e = addEntity(db, now, 'Redis');
        const a = addAspect(db, now, e, 'usage', 0.5);
        const m = addMemory(db, now, { content: CACHE });
        addAttribute(db, now, e, a, m);
        return { m, a };
      });
      const { service } = makeService(store, clock, { feedbackOver: { enabled: false } });
      const s = await service.start({ harness: 'vscode-chat', project: null });
      await store.write('shown', (db) => { db.run('DELETE FROM session_memories WHERE session_key = ?', [s.sessionKey]); addSessionMemory(db, now, s.sessionKey, m, { rank: 5 }); });
      const r = await service.userFeedback({ sessionKey: s.sessionKey, memoryIds: [m, 'no-such-memory'], action: 'opened' });
      assert.deepEqual({ memories: r.memories, rows: r.sessionRows, up: r.aspectsRaised }, { memories: 1, rows: 1, up: 0 });
      assert.equal(weight(store, a), 0.5);
      assert.equal(evidence(store, s.sessionKey, m)?.relevance_score, 1);
    } finally { await store.close(); }
  });

  it('wrong / outdated clears the memory\'s evidence in the sessions still open', async () => {
    const w = await world();
    try {
      await w.service.turn(w.key, 'assistant', 'The broker is RabbitMQ, on the mq-2 cluster [1].');
      await w.store.write('wrong', (db) => markMemoryWrongInTransaction(db, w.ids.broker, w.clock, { delta: 0.02, minWeight: 0.1 }));
      assert.deepEqual(evidence(w.store, w.key, w.ids.broker), { fts_hit_count: 0, relevance_score: 0 });
    } finally { await w.store.close(); }
  });

  it('maps [n] citations to the numbered memories and checks action names', () => {
    assert.deepEqual(citedMemoryIds('RabbitMQ [2], see also [1, 3] and [9] [2]', ['a', 'b', 'c']), ['b', 'a', 'c']);
    assert.deepEqual(citedMemoryIds('no citations', ['a']), []);
    assert.equal(parseFeedbackAction(' Helpful '), 'helpful');
    assert.throws(() => parseFeedbackAction('love'), (e: unknown) => e instanceof MemoryError && /use one of helpful, unhelpful/.test(e.message));
  });
});
