import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEVSET_DIR, loadDevSet } from '../../../bench/devset';
import type { DevMemory, DevQuestion, DevSet } from '../../../bench/devset';
import { DEFAULT_CHUNKING_CONFIG } from '../../../src/core/config/ingestConfig';
import { parseJsonl } from '../../../src/core/ingest/jsonlIngest';

const ROOT = join(__dirname, '..', '..', '..');
const CATEGORIES = ['decision', 'preference', 'file-fact', 'superseded', 'historical', 'paraphrase', 'multi-part', 'temporal', 'identifier', 'cjk', 'distractor', 'fact'];
const TYPES = new Set(['fact', 'decision', 'preference', 'constraint', 'bug', 'command', 'event', 'dependency', 'observation', 'summary']);
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const CJK = /[\u4e00-\u9fff]/;
const STOP = new Set('the a an of to in on for and or is are was were do does did we our you it what which where why how when who should can with be by at from this that about as me my us any there their them than then has have had not no must get'.split(' '));

function contentTokens(text: string): Set<string> {
  return new Set((text.toLowerCase().match(/[a-z0-9]+/g) ?? []).filter((t) => t.length >= 3 && !STOP.has(t)));
}

function isIso(value: string): boolean {
  return ISO.test(value) && new Date(value).toISOString() === value;
}

describe('devset: the committed development set', () => {
  let set: DevSet;
  let byId: Map<string, DevMemory>;
  const ofCategory = (c: string): DevQuestion[] => set.questions.filter((q) => q.category === c);
  const at = (id: string): string => (byId.get(id) as DevMemory).createdAt;

  before(() => {
    set = loadDevSet();
    byId = new Map(set.memories.map((m) => [m.sourceId, m]));
  });

  it('holds at least 2,000 memories and 300 questions', () => {
    assert.ok(set.memories.length >= 2000, `${set.memories.length} memories`);
    assert.ok(set.questions.length >= 300, `${set.questions.length} questions`);
  });

  it('has unique, well-formed sourceIds, question ids and memory contents', () => {
    assert.equal(byId.size, set.memories.length);
    for (const m of set.memories) assert.match(m.sourceId, /^dev-\d{6}$/);
    assert.equal(new Set(set.questions.map((q) => q.id)).size, set.questions.length);
    assert.equal(new Set(set.memories.map((m) => m.content)).size, set.memories.length);
  });

  it('writes every memory as a valid ingest record with an ISO createdAt', () => {
    for (const m of set.memories) {
      assert.ok(m.content.trim().length > 0, m.sourceId);
      assert.ok(TYPES.has(m.type), `${m.sourceId} type ${m.type}`);
      assert.ok(isIso(m.createdAt), `${m.sourceId} createdAt ${m.createdAt}`);
      assert.ok(m.sessionId && m.project && m.who, m.sourceId);
    }
    for (const q of set.questions) if (q.asOf !== undefined) assert.ok(isIso(q.asOf), q.id);
  });

  it('is accepted line by line by the JSONL ingest parser', () => {
    assert.equal(parseJsonl(readFileSync(join(DEVSET_DIR, 'memories.jsonl'), 'utf8')).length, set.memories.length);
  });

  it('spreads memories over at least 15 months and across 8 or more projects', () => {
    const times = set.memories.map((m) => Date.parse(m.createdAt));
    const months = (Math.max(...times) - Math.min(...times)) / (30 * 86_400_000);
    assert.ok(months >= 15, `${months.toFixed(1)} months`);
    assert.ok(new Set(set.memories.map((m) => m.project)).size >= 8);
  });

  it('points every gold and hard-negative id at an existing memory, never both at once', () => {
    for (const q of set.questions) {
      assert.ok(q.gold.length > 0, q.id);
      for (const g of q.gold) assert.ok(byId.has(g), `${q.id} gold ${g}`);
      for (const n of q.hardNegatives ?? []) {
        assert.ok(byId.has(n), `${q.id} negative ${n}`);
        assert.ok(!q.gold.includes(n), `${q.id} negative ${n} is also gold`);
      }
      if (q.project !== undefined) for (const g of q.gold) assert.equal(byId.get(g)?.project, q.project, q.id);
    }
  });

  it('has every category with at least 15 questions', () => {
    for (const c of CATEGORIES) assert.ok(ofCategory(c).length >= 15, `${c}: ${ofCategory(c).length}`);
    for (const q of set.questions) assert.ok(CATEGORIES.includes(q.category), `${q.id} category ${q.category}`);
  });

  it('gives every question a project and a scoped form without the project reference', () => {
    for (const q of set.questions) {
      assert.ok(q.project && q.scopedQuery && q.scopedQuery.trim().length > 0, q.id);
      assert.ok(q.scopedQuery.length <= q.query.length, q.id);
    }
  });

  it('needs two memories for each multi-part question and one for the rest', () => {
    for (const q of set.questions) assert.equal(new Set(q.gold).size, q.category === 'multi-part' ? 2 : 1, q.id);
  });

  it('orders supersession in time: the current value is newer, the historical gold older', () => {
    for (const q of ofCategory('superseded')) {
      assert.ok((q.hardNegatives ?? []).length > 0, q.id);
      for (const old of q.hardNegatives ?? []) assert.ok(at(old) < at(q.gold[0]), `${q.id}: ${old} not older than gold`);
    }
    for (const q of ofCategory('historical')) {
      for (const newer of q.hardNegatives ?? []) assert.ok(at(newer) > at(q.gold[0]), `${q.id}: ${newer} not newer than gold`);
    }
  });

  it('makes the gold of a temporal question the latest of its series, with a reference now', () => {
    for (const q of ofCategory('temporal')) {
      assert.ok(q.asOf !== undefined && q.asOf > at(q.gold[0]), q.id);
      for (const earlier of q.hardNegatives ?? []) assert.ok(at(earlier) < at(q.gold[0]), `${q.id}: ${earlier}`);
    }
  });

  it('writes cjk questions and their gold in Chinese, and about 5% of memories in Chinese', () => {
    for (const q of ofCategory('cjk')) {
      assert.match(q.query, CJK, q.id);
      assert.match((byId.get(q.gold[0]) as DevMemory).content, CJK, q.id);
    }
    const share = set.memories.filter((m) => CJK.test(m.content)).length / set.memories.length;
    assert.ok(share >= 0.03 && share <= 0.1, `Chinese share ${share}`);
  });

  it('keeps paraphrase questions lexically far from their gold compared with direct questions', () => {
    const shared = (q: DevQuestion): number => {
      const qt = contentTokens(q.query);
      for (const t of contentTokens(q.project ?? '')) qt.delete(t);
      const ct = contentTokens((byId.get(q.gold[0]) as DevMemory).content);
      return [...qt].filter((t) => ct.has(t)).length;
    };
    const mean = (qs: DevQuestion[]): number => qs.reduce((s, q) => s + shared(q), 0) / qs.length;
    for (const q of ofCategory('paraphrase')) assert.ok(shared(q) <= 2, `${q.id} shares ${shared(q)} content words with its gold`);
    const direct = [...ofCategory('decision'), ...ofCategory('preference'), ...ofCategory('file-fact'), ...ofCategory('fact')];
    assert.ok(mean(ofCategory('paraphrase')) < 1, `paraphrase mean overlap ${mean(ofCategory('paraphrase'))}`);
    assert.ok(mean(ofCategory('paraphrase')) * 3 < mean(direct), 'paraphrases are not far enough from their gold');
  });

  it('keeps every memory under the ingest chunking limit, so one sourceId stays one memory', () => {
    for (const m of set.memories) assert.ok(m.content.length <= DEFAULT_CHUNKING_CONFIG.maxContentChars, `${m.sourceId}: ${m.content.length} chars`);
  });

  it('has long multi-paragraph memories and short ones', () => {
    assert.ok(set.memories.filter((m) => m.content.includes('\n\n')).length >= 50);
    assert.ok(set.memories.filter((m) => m.content.length < 80).length >= 200);
  });

  it('regenerates byte-identical files (deterministic generator)', function () {
    this.timeout(60_000);
    const out = mkdtempSync(join(tmpdir(), 'devset-regen-'));
    try {
      const run = spawnSync(process.execPath, ['--require', 'tsx/cjs', join(ROOT, 'scripts', 'generateDevSet.ts'), out], { cwd: ROOT, encoding: 'utf8' });
      assert.equal(run.status, 0, run.stderr);
      for (const f of ['memories.jsonl', 'questions.jsonl']) {
        assert.ok(readFileSync(join(out, f)).equals(readFileSync(join(DEVSET_DIR, f))), `${f} differs from the committed file; run npx tsx scripts/generateDevSet.ts`);
      }
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
