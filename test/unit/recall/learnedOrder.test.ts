import { strict as assert } from 'node:assert';
import { DEFAULT_SEARCH_CONFIG, resolveSearchConfig } from '../../../src/core/config/searchConfig';
import { explainText } from '../../../src/core/recall/explainText';
import { applyLearnedOrder, isDialogue, isPersonName, learnedPositions, loadDialogueTurns, loadOrderContext, ORDER_FEATURES, orderFeatures } from '../../../src/core/recall/learnedOrder';
import type { LearnedOrderWeights, OrderContext, OrderFeatures, TurnContext } from '../../../src/core/recall/learnedOrder';
import type { Candidate } from '../../../src/core/recall/recallTypes';
import { openMemoryStore } from '../../../src/core/store/memoryStore';
import type { SqlReader } from '../../../src/core/store/storeTypes';

function cand(id: string, score: number, content: string, channels: Partial<Candidate['channels']> = {}): Candidate {
  const ch = { lexical: score, semantic: 0, hint: 0, traversal: 0, ...channels };
  return { id, content, type: 'fact', createdAt: '2026-01-01T00:00:00.000Z', sourceId: null, importance: 0.5, score, channels: ch, explain: { channels: ch, fused: score, sources: ['lexical'], boosts: [], penalties: [], notes: [], score } };
}

/** Weights that weigh only the given features (and the earlier order, `position`). */
function weights(w: Partial<LearnedOrderWeights>): LearnedOrderWeights {
  return { ...Object.fromEntries(ORDER_FEATURES.map((f) => [f, 0])), position: 1, ...w } as LearnedOrderWeights;
}

const dialogue = (over: Partial<OrderContext> = {}): OrderContext => ({ query: 'What did Noah catch?', authors: new Map(), nearBest: new Set(), turns: new Map(), dialogue: true, ...over });

describe('learned order (learnedOrder.ts)', () => {
  it('reads each memory\'s form, its author and the arms\' ranks', () => {
    const cands = [
      cand('q', 0.9, 'Mia: Noah, what did you catch at the lake?'),
      cand('a', 0.8, 'Noah: My brother and I got three trout by the water.', { lexical: 0, semantic: 0.5 }),
      cand('s', 0.7, 'Mia: Wow, nice!', { semantic: 0.25 }),
    ];
    const x = orderFeatures(cands, dialogue({ authors: new Map([['q', 'Mia'], ['a', 'Noah'], ['s', 'Mia']]), nearBest: new Set(['a']) }));
    const [q, a, s] = x as [OrderFeatures, OrderFeatures, OrderFeatures];
    assert.deepEqual([q.question, q.firstPerson, q.otherAuthor, q.namedAuthor, q.nearBest], [1, 0, 1, 0, 0]);
    assert.deepEqual([a.question, a.firstPerson, a.namedAuthor, a.otherAuthor, a.nearBest, a.short], [0, 1, 1, 0, 1, 0]);
    assert.deepEqual([s.short, s.long], [1, 0], 'the "Name: " label does not count as words');
    assert.equal(q.lexicalRank, 0, 'the best keyword match is ranked 0');
    assert.equal(a.lexicalRank, Math.log(1 + 3), 'no keyword evidence ranks after every candidate');
    assert.equal(a.semanticRank, 0);
    assert.equal(s.semantic, 0.5, 'meaning is relative to the window\'s best');
  });

  it('reads how many of the best ten share its session, how high the turns beside it rank, and whether it replies to a question', () => {
    // Twelve window memories: a1..a3 are consecutive turns of session A, the rest one each of other sessions.
    const ids = ['a2', 'x1', 'a1', 'x2', 'x3', 'x4', 'x5', 'x6', 'x7', 'x8', 'a3', 'x9'];
    const cands = ids.map((id, i) => cand(id, 1 - i * 0.05, `${id}: words`));
    const turns = new Map<string, TurnContext>(ids.map((id) => [id, { session: id.startsWith('a') ? 'A' : id, previousAsks: false }]));
    turns.set('a2', { session: 'A', previous: 'a1', previousAsks: true });
    turns.set('a3', { session: 'A', previous: 'a2', previousAsks: false });
    const x = orderFeatures(cands, dialogue({ turns }));
    const of = (id: string): OrderFeatures => x[ids.indexOf(id)] as OrderFeatures;
    assert.equal(of('a2').sameSession, Math.log(1 + 2), 'a1 and a2 are in the best ten; a3 (11th) is not counted');
    assert.equal(of('a3').sameSession, Math.log(1 + 2), 'a memory outside the ten still gets its session\'s count');
    assert.equal(of('x1').sameSession, Math.log(1 + 1));
    assert.equal(of('x9').sameSession, 0, 'a session without any of the best ten');
    assert.equal(of('a1').neighbourPlace, -Math.log(1 + 0), 'the turn after it ranks first');
    assert.equal(of('a2').neighbourPlace, -Math.log(1 + 2), 'the better of a1 (3rd) and a3 (11th)');
    assert.equal(of('x1').neighbourPlace, -Math.log(1 + ids.length), 'no neighbour in the window');
    assert.deepEqual(ids.map((id) => of(id).answersQuestion), ids.map((id) => (id === 'a2' ? 1 : 0)));
  });

  it('reads whether a memory says something its author had not said earlier in the window (novelty)', () => {
    const unit = (...xs: number[]): Float32Array => { const v = Float32Array.from(xs); const n = Math.hypot(...xs); return v.map((x) => x / n); };
    const at = (day: number, c: Candidate): Candidate => ({ ...c, createdAt: `2026-01-0${day}T00:00:00.000Z` });
    // Noah tells about the trout on day 1 and comes back to it on day 3; Mia's question on day 2 is close to both.
    const cands = [
      at(3, cand('again', 0.9, 'Noah: The trout were great.')),
      at(2, cand('mia', 0.8, 'Mia: How were the trout?')),
      at(1, cand('first', 0.7, 'Noah: We caught three trout.')),
      at(3, cand('other', 0.6, 'Noah: My sister starts school.')),
    ];
    const vectors = new Map([['again', unit(1, 0.2, 0)], ['mia', unit(1, 0, 0)], ['first', unit(1, 0, 0.1)], ['other', unit(0, 0, 1)]]);
    const authors = new Map([['again', 'Noah'], ['mia', 'Mia'], ['first', 'Noah'], ['other', 'Noah']]);
    const x = orderFeatures(cands, dialogue({ authors, vectorOf: (id) => vectors.get(id) }));
    const cos = (a: string, b: string): number => { const u = vectors.get(a) as Float32Array, v = vectors.get(b) as Float32Array; return u.reduce((s, ui, k) => s + ui * (v[k] as number), 0); };
    const of = (id: string): number => (x[cands.findIndex((c) => c.id === id)] as OrderFeatures).novelty;
    assert.ok(Math.abs(of('again') - (1 - cos('again', 'first'))) < 1e-6, 'the return to the trout, against Noah\'s first telling');
    assert.equal(of('first'), 1, 'the first telling: nothing Noah wrote before it');
    assert.equal(of('mia'), 1, 'another author\'s earlier or later memories do not count');
    assert.ok(Math.abs(of('other') - (1 - Math.max(0, cos('other', 'first')))) < 1e-6, 'a new subject stays near 1');
    assert.ok(of('again') < 0.1 && of('other') > 0.8);
    // Same time: the order memories were written (seq) decides which came first.
    const same = [cand('b', 0.9, 'Noah: trout again'), cand('a', 0.8, 'Noah: trout')];
    const turns = new Map<string, TurnContext>([['a', { session: 's', seq: 1, previousAsks: false }], ['b', { session: 's', seq: 2, previousAsks: false }]]);
    const y = orderFeatures(same, dialogue({ authors: new Map([['a', 'Noah'], ['b', 'Noah']]), turns, vectorOf: () => unit(1, 0, 0) }));
    assert.deepEqual(y.map((f) => Math.round(f.novelty * 1e6) / 1e6), [0, 1]);
    const none = orderFeatures(cands, dialogue({ authors }));
    assert.deepEqual(none.map((f) => f.novelty), [1, 1, 1, 1], 'without stored vectors nothing is known to repeat');
    const why = applyLearnedOrder(cands.slice(0, 3).map((c) => ({ ...c })), dialogue({ authors, vectorOf: (id) => vectors.get(id) }), { enabled: true, weights: weights({ novelty: 5 }) });
    assert.equal(why[0]?.id, 'mia');
    assert.match(why.find((c) => c.id === 'again')?.explain.penalties.find((p) => p.stage === 'learnedOrder')?.note ?? '', /close to what its author said earlier/);
    assert.match(why.find((c) => c.id === 'first')?.explain.boosts.find((p) => p.stage === 'learnedOrder')?.note ?? '', /something its author had not said earlier/);
  });

  it('orders by −position·ln(1 + place) + Σ w·x, ties keeping the earlier order', () => {
    const x = (over: Partial<OrderFeatures>): OrderFeatures => ({ ...Object.fromEntries(ORDER_FEATURES.map((f) => [f, 0])), ...over }) as OrderFeatures;
    const w = weights({ question: -1 });
    // ln 2 ≈ 0.69 < 1: a question at the top falls below the statement after it, not below the third.
    assert.deepEqual(learnedPositions([x({ question: 1 }), x({}), x({})], w), [1, 0, 2]);
    assert.deepEqual(learnedPositions([x({}), x({}), x({})], weights({})), [0, 1, 2], 'no feature weight keeps the order');
  });

  it('moves memories between places, each place keeping its score, and says why', () => {
    const cands = [cand('q', 0.9, 'Mia: Noah, what did you catch at the lake?'), cand('a', 0.6, 'Noah: I got three trout.'), cand('z', 0.3, 'Mia: See you soon then, bye.')];
    const ctx = dialogue({ authors: new Map([['q', 'Mia'], ['a', 'Noah'], ['z', 'Mia']]) });
    const out = applyLearnedOrder(cands, ctx, { enabled: true, weights: weights({ question: -1, namedAuthor: 1 }) });
    assert.deepEqual(out.map((c) => c.id), ['a', 'q', 'z']);
    assert.deepEqual(out.map((c) => c.score), [0.9, 0.6, 0.3], 'the window\'s scores stay, in order: only the order changes');
    const up = out[0]?.explain.boosts.find((b) => b.stage === 'learnedOrder');
    assert.equal(up?.note, 'moved up from 2nd to 1st: written by the person asked about, a statement, not a question');
    const down = out[1]?.explain.penalties.find((b) => b.stage === 'learnedOrder');
    assert.equal(down?.note, 'moved down from 1st to 2nd: a question, not a statement, not written by the person asked about');
    assert.equal(out[2]?.explain.boosts.length, 0, 'a memory that kept its place has no line');
    const replies = applyLearnedOrder([cand('q', 0.9, 'Mia: What did you catch?'), cand('a', 0.6, 'Noah: Three trout.')], dialogue({ turns: new Map([['a', { session: 's', previous: 'q', previousAsks: true }], ['q', { session: 's', previousAsks: false }]]) }), { enabled: true, weights: weights({ answersQuestion: 2 }) });
    assert.equal(replies[0]?.explain.boosts.find((b) => b.stage === 'learnedOrder')?.note, 'moved up from 2nd to 1st: a reply to a question');
    const why = explainText(out[0]?.explain as Candidate['explain'], { best: 0.9 });
    assert.ok(why.some((l) => l.startsWith('Learned order: moved up from 2nd to 1st: written by the person asked about')), why.join('\n'));
  });

  it('leaves the order alone outside a dialogue, when switched off, and for a single result', () => {
    const cands = () => [cand('q', 0.9, 'Noah, what did you catch?'), cand('a', 0.6, 'I got three trout.')];
    const w = weights({ question: -5 });
    assert.deepEqual(applyLearnedOrder(cands(), dialogue({ dialogue: false }), { enabled: true, weights: w }).map((c) => c.id), ['q', 'a']);
    assert.deepEqual(applyLearnedOrder(cands(), dialogue(), { enabled: false, weights: w }).map((c) => c.id), ['q', 'a']);
    assert.deepEqual(applyLearnedOrder(cands().slice(0, 1), dialogue(), { enabled: true, weights: w }).map((c) => c.id), ['q']);
  });

  it('tells a dialogue (two people taking turns) from notes', () => {
    const at = (authors: (string | null)[]) => ({ ids: authors.map((_, i) => `m${i}`), authors, at: 1 });
    assert.equal(isDialogue(at(['Mia', 'Noah', 'Mia', 'Noah'])), true);
    assert.equal(isDialogue(at(['Ana Lopez', 'Noah', 'Ana Lopez'])), true);
    assert.equal(isDialogue(at(['claude-code', 'copilot-agent', 'claude-code'])), false, 'notes two agents wrote in turn (the demo store)');
    assert.equal(isDialogue(at(['user', 'assistant', 'user'])), false, 'roles, not people: the model was not learned on such chats');
    assert.equal(isDialogue(at(['codex', 'codex', 'aider'])), false, 'one writer following themselves');
    assert.equal(isDialogue(at(['codex', 'aider', 'cursor'])), false, 'three writers');
    assert.equal(isDialogue(at(['Mia', null, 'Mia'])), false, 'a turn without an author');
    assert.equal(isDialogue(at(['Mia', 'Noah'])), false, 'too few turns to tell');
    assert.equal(isDialogue(undefined), false);
  });

  it('knows a person\'s name from a role or a tool id', () => {
    for (const name of ['Melanie', 'Ana Lopez', "Conan O'Brien", 'Zoë']) assert.equal(isPersonName(name), true, name);
    for (const name of ['user', 'Assistant', 'claude-code', 'copilot-agent', 'codex', 'bot 2', 'AI']) assert.equal(isPersonName(name), false, name);
  });

  it('loads the authors, whether the best is a dialogue turn, and the turns next to the best', async () => {
    const store = await openMemoryStore();
    try {
      await store.write('t', (w) => {
        const rows: [string, string | null, string][] = [['d1', 'Mia', 'talk'], ['d2', 'Noah', 'talk'], ['d3', 'Mia', 'talk'], ['d4', 'Noah', 'talk'], ['d5', 'Mia', 'talk'], ['d6', 'Noah', 'talk'], ['n1', 'codex', 'notes'], ['n2', 'codex', 'notes'], ['n3', 'aider', 'notes']];
        rows.forEach(([id, who, session], i) => w.run('INSERT INTO memories (id, content, type, who, session_key, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)', [id, id === 'd2' ? 'Noah: what now?' : id, 'fact', who, session, `2026-01-01T00:00:0${i}.000Z`, `2026-01-01T00:00:0${i}.000Z`]));
      });
      const filter = {};
      const talk = store.read((db) => loadOrderContext(db, [cand('d3', 1, 'd3'), cand('n1', 0.5, 'n1')], 'q', filter));
      assert.equal(talk.dialogue, true);
      assert.deepEqual([...talk.nearBest].sort(), ['d1', 'd2', 'd4', 'd5'], 'two turns each side, not the turn itself');
      assert.equal(talk.authors.get('d3'), 'Mia');
      const turn = (ctx: OrderContext, id: string): Omit<TurnContext, 'seq'> | undefined => { const t = ctx.turns.get(id); if (!t) return undefined; const { seq: _seq, ...rest } = t; return rest; };
      assert.deepEqual(turn(talk, 'd3'), { session: 'talk', previous: 'd2', previousAsks: true }, 'd2 asks, d3 replies');
      assert.deepEqual(turn(talk, 'n1'), { session: 'notes', previousAsks: false }, 'every window memory\'s turn, not only the best\'s');
      assert.ok((talk.turns.get('d3')?.seq as number) < (talk.turns.get('n1')?.seq as number), 'and its place in the order memories were written');
      const wide = store.read((db) => loadOrderContext(db, ['d3', 'd1', 'd6', 'd5', 'n3'].map((id, i) => cand(id, 1 - i / 10, id)), 'q', filter));
      assert.deepEqual(['d5', 'n3'].map((id) => turn(wide, id)), [{ session: 'talk', previous: 'd4', previousAsks: false }, { session: 'notes', previous: 'n2', previousAsks: false }], 'beyond the best three too');
      const notes = store.read((db) => loadOrderContext(db, [cand('n2', 1, 'n2'), cand('d3', 0.5, 'd3')], 'q', filter));
      assert.equal(notes.dialogue, false, 'the best is a note among notes: the stage stays out');
      assert.equal(notes.nearBest.size + notes.authors.size + notes.turns.size, 0, 'and reads nothing more');
      const mixed = store.read((db) => loadOrderContext(db, [cand('d2', 1, 'd2'), cand('n2', 0.8, 'n2'), cand('d5', 0.5, 'd5')], 'q', filter));
      assert.deepEqual([...mixed.nearBest].sort(), ['d1', 'd3', 'd4', 'd6'], 'a later best that is a note adds no neighbours; one that is a dialogue turn does');
      assert.deepEqual([...store.read((db) => loadDialogueTurns(db, ['d1', 'n1', 'd6', 'n3', 'gone'], filter))], ['d1', 'd6'], 'the first and last turns of a dialogue are its turns too; notes and unknown ids are not');
      const statements = store.read((db) => { let n = 0; const counted: SqlReader = { all: (sql, params) => { n++; return db.all(sql, params); }, get: (sql, params) => db.get(sql, params), hasTable: (t) => db.hasTable(t) }; loadDialogueTurns(counted, ['n1', 'n2', 'n3'], filter); return n; });
      assert.equal(statements, 1, 'notes by agents: their authors are read, not the turns around them');
    } finally {
      await store.close();
    }
  });

  it('is on by default with the weights bench/trainOrder.ts wrote, and can be switched off', () => {
    assert.equal(DEFAULT_SEARCH_CONFIG.learnedOrder.enabled, true);
    assert.ok(DEFAULT_SEARCH_CONFIG.learnedOrder.weights.position > 0);
    assert.ok(ORDER_FEATURES.some((f) => DEFAULT_SEARCH_CONFIG.learnedOrder.weights[f] !== 0), 'trained weights, not zeros');
    assert.equal(resolveSearchConfig({ learnedOrder: { enabled: false } }).learnedOrder.enabled, false);
    assert.equal(resolveSearchConfig({ learnedOrder: { weights: { ...DEFAULT_SEARCH_CONFIG.learnedOrder.weights, question: -2 } } }).learnedOrder.weights.question, -2);
    assert.equal(resolveSearchConfig({ learnedOrder: { weights: { ...DEFAULT_SEARCH_CONFIG.learnedOrder.weights, position: -1 } } }).learnedOrder.weights.position, 1e-6, 'the place weight stays positive');
  });
});
