/**
 * Session lifecycle bench. In-memory stores of 1k and 10k memories with a knowledge graph
 * (entities, aspects, attributes, mentions); 40 scripted sessions each: start (focal resolution,
 * candidate selection, learned ranker once live, recording), recall-style FTS hits, one turn, end
 * (proxy continuity, feedback, decay cadence, predictor comparison + training). Then getEntityHealth
 * and one maintenance run. Prints p50/p95/max in ms and writes bench/results/sessions.json.
 *
 *   npx tsx bench/sessions.ts [--sizes 1000,10000] [--sessions 40]
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ManualClock } from '../src/core/clock';
import { defaultEngineSettings } from '../src/core/engine/engineConfig';
import { MemoryEngine } from '../src/core/engine/memoryEngine';
import { noProgress } from '../src/core/hostContext';
import { silentLogger } from '../src/core/logger';
import { getEntityHealth } from '../src/core/predictor/entityHealth';
import { openMemoryStore } from '../src/core/store/memoryStore';

const args = process.argv.slice(2);
const argOf = (name: string, def: string): string => { const i = args.indexOf(`--${name}`); return i >= 0 && args[i + 1] ? args[i + 1] as string : def; };
const SIZES = argOf('sizes', '1000,10000').split(',').map(Number);
const SESSIONS = Number(argOf('sessions', '40'));
const DAY = 86_400_000;

let seed = 7;
const rnd = (): number => { seed = (seed * 1103515245 + 12345) % 2 ** 31; return seed / 2 ** 31; };
const WORDS = Array.from({ length: 800 }, (_, i) => `w${i.toString(36)}`);
const sentence = (n: number): string => Array.from({ length: n }, () => WORDS[Math.floor(Math.pow(rnd(), 2) * WORDS.length)]).join(' ');

function stats(xs: number[]): { p50: number; p95: number; max: number } {
  const s = [...xs].sort((a, b) => a - b);
  const at = (q: number): number => s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0;
  return { p50: +at(0.5).toFixed(2), p95: +at(0.95).toFixed(2), max: +(s[s.length - 1] ?? 0).toFixed(2) };
}

async function run(size: number): Promise<Record<string, unknown>> {
  const clock = new ManualClock(Date.UTC(2026, 0, 1));
  const store = await openMemoryStore({ clock });
  let n = 0;
  const id = (p: string): string => `${p}${(++n).toString(16).padStart(12, '0')}`;
  const t0 = new Date(clock.now()).toISOString();
  const entities: string[] = [];
  const aspects: string[] = [];
  const memories: string[] = [];
  await store.write('seed', (db) => {
    const project = id('e');
    db.run("INSERT INTO entities (id, name, canonical_name, entity_type, mentions, created_at, updated_at) VALUES (?, 'shop', 'shop', 'project', 100, ?, ?)", [project, t0, t0]);
    for (let e = 0; e < Math.max(10, size / 50); e++) {
      const eid = id('e');
      entities.push(eid);
      db.run('INSERT INTO entities (id, name, canonical_name, entity_type, mentions, created_at, updated_at) VALUES (?, ?, ?, ?, 3, ?, ?)', [eid, `Entity ${e}`, `entity ${e}`, 'concept', t0, t0]);
      for (let a = 0; a < 3; a++) {
        const aid = id('a');
        aspects.push(aid);
        db.run('INSERT INTO entity_aspects (id, entity_id, name, canonical_name, weight, created_at, updated_at) VALUES (?, ?, ?, ?, 0.5, ?, ?)', [aid, eid, `aspect ${a}`, `aspect ${a}`, t0, t0]);
      }
    }
    for (let m = 0; m < size; m++) {
      const mid = id('m');
      memories.push(mid);
      const created = new Date(clock.now() - Math.floor(rnd() * 60) * DAY).toISOString();
      db.run('INSERT INTO memories (id, content, importance, project, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)', [mid, sentence(12), 0.3 + rnd() * 0.7, '/src/shop', created, created]);
      const a = aspects[Math.floor(rnd() * aspects.length)] as string;
      const e = entities[Math.floor(aspects.indexOf(a) / 3)] as string;
      db.run('INSERT INTO entity_attributes (id, entity_id, aspect_id, memory_id, content, importance, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)', [id('t'), e, a, mid, 'attr', 0.5, t0, t0]);
      if (m % 3 === 0) db.run('INSERT INTO memory_entity_mentions (memory_id, entity_id, mention_text) VALUES (?, ?, ?)', [mid, project, 'shop']);
    }
  });
  // The feedback loop as every host gets it: assembled by the engine from the default settings (no models).
  const engine = MemoryEngine.onStore(store, { paths: { storeDir: '', bundledModelsDir: '', cacheDir: '' }, logger: silentLogger, clock, llm: undefined, progress: noProgress },
    defaultEngineSettings(), { mode: 'onDemand', embedder: () => undefined });
  const { loop } = engine;
  const start: number[] = [], end: number[] = [];
  for (let s = 0; s < SESSIONS; s++) {
    const key = `bench-${s}`;
    let t = performance.now();
    const r = await loop.sessions.start({ sessionKey: key, project: '/src/shop', query: 'entity 3 aspect' });
    start.push(performance.now() - t);
    const hits = r.injected.filter((_, i) => i % 4 === 0).map((m) => m.id);
    await store.write('hits', (db) => { for (const h of hits) db.run('UPDATE session_memories SET fts_hit_count = fts_hit_count + 1 WHERE session_key = ? AND memory_id = ?', [key, h]); });
    await loop.sessions.turn(key, 'user', sentence(40));
    t = performance.now();
    await loop.sessions.end(key);
    end.push(performance.now() - t);
    clock.advance(DAY);
  }
  let t = performance.now();
  const health = store.read((db) => getEntityHealth(db, 'default'));
  const healthMs = performance.now() - t;
  t = performance.now();
  const report = await loop.maintenance.run();
  const maintainMs = performance.now() - t;
  await engine.close();
  return { size, sessions: SESSIONS, startMs: stats(start), endMs: stats(end), healthMs: +healthMs.toFixed(2), healthEntities: health.length, maintainAllMs: +maintainMs.toFixed(2), maintainTasks: report.tasks.map((x) => x.task) };
}

async function main(): Promise<void> {
  const results = [];
  for (const size of SIZES) {
    const r = await run(size);
    results.push(r);
    console.log(JSON.stringify(r));
  }
  const out = join(__dirname, 'results');
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'sessions.json'), JSON.stringify({ machine: 'node ' + process.version, date: new Date().toISOString(), results }, null, 2) + '\n');
}

main().catch((e: unknown) => { console.error(e); process.exitCode = 1; });
