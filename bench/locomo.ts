/**
 * The real-conversation development set: LoCoMo conversations read from outside the repository
 * (default ../shared/datasets/locomo/locomo-dev.json, or AGENT_MEMORY_LOCOMO; see that folder's
 * README for source, license and mapping). Nothing of it is ever copied into the repository.
 *
 * Mapping (the one the issue figures use): one memory per turn, content "<speaker>: <text>" plus
 * " [shares a photo of <caption>]" when the turn has one, sourceId = dia_id, createdAt = the
 * session's date, who = speaker, one store per conversation. Questions of categories 1–4 are kept
 * (5 is adversarial, without an answer); gold = the evidence dia_ids, normalised ("D8:6; D9:17"
 * is two ids, "D:11:26" is D11:26, ids that name no turn are dropped).
 *
 * Stores are built through the write path `agent-memory ingest` uses: rememberInTransaction() in
 * INGEST_BATCH transactions, as ingestMemories() does, with the
 * embed and extract jobs enqueued, then the job worker with the pipeline handlers (real embedder,
 * heuristic extraction, no LLM) drained until settled.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Clock } from '../src/core/clock';
import { systemClock } from '../src/core/clock';
import type { MemoryEngine } from '../src/core/engine/memoryEngine';
import { INGEST_BATCH } from '../src/core/ingest/jsonlIngest';
import { rememberInTransaction } from '../src/core/memory/remember';
import type { RememberInput } from '../src/core/memory/remember';
import type { EngineSettings } from '../src/core/engine/engineConfig';
import type { Embedder } from '../src/core/models/embedder';
import { rankRecall } from '../src/core/recall/recallPipeline';
import type { RankedRecall } from '../src/core/recall/recallPipeline';
import { effectiveConfig } from '../src/core/recall/recallRequest';
import { vectorIndexFor } from '../src/core/recall/recallService';
import { RECALL_STAGES } from '../src/core/recall/recallStages';
import type { RecallStage } from '../src/core/recall/recallStages';
import { exportMemoryStoreImage, openMemoryStore, openMemoryStoreFromImage } from '../src/core/store/memoryStore';
import type { MemoryStore } from '../src/core/store/storeTypes';
import { defaultModelDir } from '../src/cli/commands/recall';
import { WorkerEmbedder } from '../src/core/models/workerEmbedder';
import { benchEngine, cachingEmbedder } from './benchEngine';

/** Where the dev conversations are read from. */
export function locomoPath(env: NodeJS.ProcessEnv = process.env): string {
  return env.AGENT_MEMORY_LOCOMO ?? join(__dirname, '..', '..', 'shared', 'datasets', 'locomo', 'locomo-dev.json');
}

export interface LocomoQuestion {
  readonly id: string;
  readonly query: string;
  readonly gold: string[];
  /** "1".."4" (LoCoMo: 1 multi-hop, 2 temporal, 3 open-domain/inference, 4 single-hop). */
  readonly category: string;
}

export interface LocomoConversation {
  readonly id: string;
  readonly memories: RememberInput[];
  readonly questions: LocomoQuestion[];
  /** Date of the last session: the "now" questions are asked at. */
  readonly endsAt: string;
}

interface RawTurn { speaker: string; dia_id: string; text: string; blip_caption?: string }
interface RawQa { question: string; evidence?: unknown[]; category: number }
interface RawConversation { sample_id?: string; conversation: Record<string, unknown>; qa: RawQa[] }

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/** "1:56 pm on 8 May, 2023" → ISO (UTC), or undefined when it does not parse. */
export function parseSessionDate(text: string): string | undefined {
  const m = /(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+([a-z]+),?\s+(\d{4})/i.exec(text);
  if (!m) return undefined;
  const month = MONTHS.indexOf((m[5] as string).toLowerCase());
  if (month < 0) return undefined;
  let hour = Number(m[1]) % 12;
  if ((m[3] as string).toLowerCase() === 'pm') hour += 12;
  return new Date(Date.UTC(Number(m[6]), month, Number(m[4]), hour, Number(m[2]))).toISOString();
}

/** Evidence ids in canonical "D<session>:<turn>" form; malformed fragments give nothing. */
export function normaliseEvidence(raw: unknown): string[] {
  if (typeof raw !== 'string') return [];
  const out: string[] = [];
  for (const m of raw.matchAll(/D\s*:?\s*(\d+)\s*:\s*(\d+)/gi)) out.push(`D${Number(m[1])}:${Number(m[2])}`);
  return out;
}

function turnContent(t: RawTurn): string {
  return `${t.speaker}: ${t.text}` + (t.blip_caption ? ` [shares a photo of ${t.blip_caption}]` : '');
}

export function parseLocomo(json: unknown): LocomoConversation[] {
  if (!Array.isArray(json)) throw new Error('LoCoMo file: expected a JSON array of conversations.');
  return (json as RawConversation[]).map((c, ci) => {
    const id = c.sample_id ?? `conv-${ci + 1}`;
    const memories: RememberInput[] = [];
    const turnIds = new Set<string>();
    let endsAt = '';
    const sessions = Object.keys(c.conversation).filter((k) => /^session_\d+$/.test(k)).sort((a, b) => Number(a.slice(8)) - Number(b.slice(8)));
    for (const key of sessions) {
      const turns = c.conversation[key] as RawTurn[];
      const date = parseSessionDate(String(c.conversation[`${key}_date_time`] ?? ''));
      if (!date) throw new Error(`LoCoMo file: ${id} ${key} has no parsable date.`);
      endsAt = date > endsAt ? date : endsAt;
      for (const t of turns) {
        const dia = normaliseEvidence(t.dia_id)[0];
        if (!dia || !t.text) continue;
        turnIds.add(dia);
        memories.push({ content: turnContent(t), sourceId: dia, createdAt: date, who: t.speaker, sessionKey: `${id}-${key}` });
      }
    }
    const questions: LocomoQuestion[] = [];
    c.qa.forEach((q, qi) => {
      if (![1, 2, 3, 4].includes(q.category)) return;
      const gold = [...new Set((q.evidence ?? []).flatMap(normaliseEvidence))].filter((g) => turnIds.has(g));
      if (gold.length === 0) return;
      questions.push({ id: `${id}-q${qi}`, query: q.question, gold, category: String(q.category) });
    });
    return { id, memories, questions, endsAt };
  });
}

/** The dev conversations, or undefined (with the reason) when the file is absent. */
export function loadLocomo(path: string = locomoPath()): { conversations: LocomoConversation[] } | { absent: string } {
  if (!existsSync(path)) return { absent: `LoCoMo dev set not found at ${path} (set AGENT_MEMORY_LOCOMO); the real-conversation part is skipped.` };
  return { conversations: parseLocomo(JSON.parse(readFileSync(path, 'utf8'))) };
}

/**
 * The dev conversations with the bundled model behind the vector caches the LoCoMo benches share
 * (a temp-folder file per model, then memory), or why the conversations are absent. The caller
 * disposes `model`.
 */
export function openLocomoBench(): { conversations: LocomoConversation[]; model: WorkerEmbedder; embedder: Embedder } | { absent: string } {
  const loaded = loadLocomo();
  if ('absent' in loaded) return loaded;
  const modelDir = defaultModelDir(process.env, join(__dirname, '..', 'src', 'cli', 'commands'));
  if (!modelDir) throw new Error('The default model (models/use-lite) was not found; build it first (npm run build).');
  const model = new WorkerEmbedder({ modelDir });
  return { conversations: loaded.conversations, model, embedder: cachingEmbedder(diskCachedEmbedder(model, 'locomo-vectors'), new Map()) };
}

/**
 * An embedder that keeps every vector in a temp-folder file per model (embedding ~2,800 turns is
 * the slow part of a run); misses go to the inner embedder and are appended to the file.
 */
export function diskCachedEmbedder(inner: Embedder, label: string): Embedder {
  const file = join(tmpdir(), `agent-memory-${label}-${createHash('sha256').update(inner.id).digest('hex').slice(0, 12)}.json`);
  const cache = new Map<string, Float32Array>();
  if (existsSync(file)) {
    try {
      for (const [text, b64] of Object.entries(JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>)) {
        const buf = Buffer.from(b64, 'base64');
        cache.set(text, new Float32Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength)));
      }
    } catch { cache.clear(); }
  }
  const save = (): void => {
    const out: Record<string, string> = {};
    for (const [t, v] of cache) out[t] = Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64');
    writeFileSync(file, JSON.stringify(out));
  };
  return {
    id: inner.id, dims: inner.dims,
    embed: async (texts, options) => {
      const missing = [...new Set(texts.filter((t) => !cache.has(t)))];
      if (missing.length) {
        (await inner.embed(missing, options)).forEach((vec, i) => cache.set(missing[i] as string, vec));
        save();
      }
      return texts.map((t) => cache.get(t) as Float32Array);
    },
    dispose: () => inner.dispose(),
  };
}

export interface LocomoStore {
  readonly conversation: LocomoConversation;
  readonly store: MemoryStore;
  /** The engine that wrote the store (default settings); closing it closes the store. */
  readonly engine: MemoryEngine<MemoryStore>;
  /** Memory id → the dia_ids it holds (a turn deduplicated onto an equal earlier one adds its id there). */
  readonly sourcesById: Map<string, string[]>;
}

/** When the development questions are asked: a day after the conversation's last session. */
export function locomoAskedAt(conversation: LocomoConversation): number {
  return Date.parse(conversation.endsAt) + 86_400_000;
}

/**
 * One question through the engine's own ranking (its current settings, limit 10) at the time the
 * questions are asked, without the bookkeeping a tracked recall does; `stages` replaces
 * RECALL_STAGES (a bench's tap in place of one stage).
 */
export async function rankLocomoQuestion(built: LocomoStore, clock: { set(ms: number): void }, query: string, stages: readonly RecallStage[] = RECALL_STAGES): Promise<RankedRecall> {
  clock.set(locomoAskedAt(built.conversation));
  const deps = built.engine.recallDeps();
  const vectors = deps.embedder ? vectorIndexFor(built.store, deps.embedder.id, deps.embedder.dims) : undefined;
  const req = { query, limit: 10 };
  return rankRecall(built.store, req, deps, effectiveConfig(deps.config, req), vectors, stages);
}

/**
 * Hash of the write path's source: every .ts file under src/core except recall/ and the search
 * configuration (recall reads a built store; changing it does not change what ingest wrote).
 */
function writePathHash(): string {
  const root = join(__dirname, '..', 'src', 'core');
  const h = createHash('sha256');
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const full = join(dir, name);
      if (statSync(full).isDirectory()) { if (full !== join(root, 'recall')) walk(full); continue; }
      if (name.endsWith('.ts') && name !== 'searchConfig.ts') h.update(full.slice(root.length)).update(readFileSync(full));
    }
  };
  walk(root);
  return h.digest('hex');
}

let writePathKey: string | undefined;

/**
 * A conversation's built store kept in the temp folder, keyed by the conversation, the embedder
 * and the write path's source (writePathHash): building the five stores is most of a run (minutes
 * on a busy machine), and recall changes do not change them. `AGENT_MEMORY_LOCOMO_REBUILD=1` or a
 * change of the write path builds again.
 */
function storeCacheFile(conversation: LocomoConversation, embedder: Embedder): string {
  writePathKey ??= writePathHash();
  const key = createHash('sha256').update(writePathKey).update(embedder.id).update(JSON.stringify(conversation)).digest('hex').slice(0, 16);
  return join(tmpdir(), `agent-memory-locomo-store-${conversation.id}-${key}.sqlite`);
}

/**
 * buildLocomoStore through the store cache (storeCacheFile): a cached image is opened with the
 * sources map kept beside it; else the store is built and its image saved.
 */
export async function cachedLocomoStore(conversation: LocomoConversation, embedder: Embedder, clock: Clock = systemClock, settings?: EngineSettings): Promise<LocomoStore & { cached: boolean }> {
  const file = storeCacheFile(conversation, embedder);
  if (process.env.AGENT_MEMORY_LOCOMO_REBUILD !== '1' && existsSync(file) && existsSync(`${file}.json`)) {
    const store = await openMemoryStoreFromImage(new Uint8Array(readFileSync(file)));
    const sourcesById = new Map<string, string[]>(JSON.parse(readFileSync(`${file}.json`, 'utf8')) as [string, string[]][]);
    return { conversation, store, engine: benchEngine(store, clock, embedder, settings), sourcesById, cached: true };
  }
  const built = await buildLocomoStore(conversation, embedder, clock);
  writeFileSync(file, exportMemoryStoreImage(built.store));
  writeFileSync(`${file}.json`, JSON.stringify([...built.sourcesById]));
  // The build engine is on-demand (no timers): another on the same store takes the caller's settings.
  return { ...built, ...(settings ? { engine: benchEngine(built.store, clock, embedder, settings) } : {}), cached: false };
}

/**
 * One in-memory store for a conversation, written and settled as `agent-memory ingest` does, by
 * the engine the CLI and the extension run (default settings, no LLM) on `clock`; the caller keeps
 * the engine to recall through and closes it.
 */
export async function buildLocomoStore(conversation: LocomoConversation, embedder: Embedder, clock: Clock = systemClock): Promise<LocomoStore> {
  const store = await openMemoryStore();
  const engine = benchEngine(store, clock, embedder);
  const deps = engine.rememberDeps();
  const sourcesById = new Map<string, string[]>();
  // ingestMemories() without dropping duplicates' ids: a repeated turn ("Thanks!") is deduplicated
  // onto the earlier memory, which then stands for both dia_ids.
  for (let i = 0; i < conversation.memories.length; i += INGEST_BATCH) {
    const batch = conversation.memories.slice(i, i + INGEST_BATCH);
    const results = await store.write('ingest', (db) => batch.map((m) => rememberInTransaction(db, m, deps)));
    results.forEach((r, j) => {
      for (const chunk of r.chunkIds.length ? r.chunkIds : [r.id]) sourcesById.set(chunk, [...(sourcesById.get(chunk) ?? []), (batch[j] as RememberInput).sourceId as string]);
    });
  }
  await engine.settle();
  return { conversation, store, engine, sourcesById };
}
