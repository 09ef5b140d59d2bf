/**
 * The host half of the Knowledge panel's first open (issue #27, "Fast panel"), on the path a new
 * window runs: a fresh process opens the engine as the window does (`MemoryEngine.open`, mode
 * 'background', the model warm-up started on the next turn as src/extension/host/services.ts does),
 * then the panel's controller gets 'ready' and the first 'search' (src/extension/knowledge/
 * knowledgeController.ts over StoreKnowledgeSource) and sends its first page. Prints one JSON line:
 * store open, first list (from the process's open call), rows, total. VS Code's own start and the
 * webview's load are not in it: bench/knowledgePanel.mjs adds the webview half in Chromium.
 *
 *   node --require tsx/cjs bench/knowledgePanelFirstOpen.ts --fill DIR --memories 60|N   (once: builds the store)
 *   node --require tsx/cjs bench/knowledgePanelFirstOpen.ts --child DIR                   (one first open, on a copy)
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { systemClock } from '../src/core/clock';
import { defaultEngineSettings } from '../src/core/engine/engineConfig';
import { MemoryEngine } from '../src/core/engine/memoryEngine';
import { noProgress } from '../src/core/hostContext';
import { createStreamLogger, createRecordingLogger } from '../src/core/logger';
import { KnowledgeController } from '../src/extension/knowledge/knowledgeController';
import { StoreKnowledgeSource } from '../src/extension/knowledge/storeKnowledgeSource';
import type { HostMessage } from '../src/shared/knowledgeProtocolTypes';
import { directFill, note } from './recallCliPath';

const args = process.argv.slice(2);
const argOf = (name: string): string | undefined => { const i = args.indexOf(`--${name}`); return i >= 0 ? args[i + 1] : undefined; };
const DEMO_SEED = join(__dirname, '..', 'test', 'fixtures', 'demoWorkspace', '.agent-memory-seed.jsonl');

/** The demo's 60 memories (what `npm start` seeds) or N synthetic agent notes. */
function contents(n: number): string[] {
  if (n === 60) return readFileSync(DEMO_SEED, 'utf8').split('\n').filter((l) => l.trim()).map((l) => (JSON.parse(l) as { content: string }).content);
  return Array.from({ length: n }, (_, i) => note(i));
}

async function child(original: string): Promise<void> {
  const dir = join(mkdtempSync(join(tmpdir(), 'am-panel-open-')), 'store');
  cpSync(original, dir, { recursive: true });
  try {
    const t0 = performance.now();
    const host = { paths: { storeDir: dir, bundledModelsDir: join(__dirname, '..', 'models'), cacheDir: join(dir, '..', 'cache') }, logger: createStreamLogger('error'), clock: systemClock, llm: undefined, progress: noProgress };
    const engine = await MemoryEngine.open(host, defaultEngineSettings((k) => (k === 'store.path' ? dir : undefined)), { mode: 'background', leaseLabel: 'window' });
    const openMs = performance.now() - t0;
    const warm = new Promise<void>((resolve) => setTimeout(() => { void engine.warm().catch(() => undefined).then(resolve); }, 0));
    const feedback = engine.loop.config.feedback;
    const source = new StoreKnowledgeSource({ store: engine.store, clock: engine.recallDeps().clock, minAspectWeight: feedback.minAspectWeight, maxAspectWeight: feedback.maxAspectWeight });
    const sent: { type: string; at: number; rows?: number; total?: number }[] = [];
    const controller = new KnowledgeController(source, (m: HostMessage) => {
      sent.push({ type: m.type, at: performance.now() - t0, ...(m.type === 'page' ? { rows: m.entities.length, total: m.total } : {}) });
    }, { openInTree: async () => undefined, copyText: async () => undefined }, createRecordingLogger());
    await Promise.all([controller.handle({ type: 'ready' }), controller.handle({ type: 'search', query: '', entityType: null })]);
    const page = sent.find((m) => m.type === 'page');
    await warm;
    const warmDoneMs = performance.now() - t0;
    controller.dispose();
    source.dispose();
    await engine.close();
    const memories = Number(readFileSync(join(original, '..', 'memories.txt'), 'utf8'));
    console.log(JSON.stringify({ memories, openMs: Math.round(openMs), firstListMs: Math.round(page?.at ?? -1), rows: page?.rows ?? 0, entities: page?.total ?? 0, order: sent.map((m) => m.type), warmDoneMs: Math.round(warmDoneMs) }));
  } finally {
    rmSync(join(dir, '..'), { recursive: true, force: true });
  }
}

async function fill(dir: string, n: number): Promise<void> {
  if (existsSync(join(dir, 'memories.txt'))) return;
  rmSync(dir, { recursive: true, force: true });
  const list = contents(n);
  const r = await directFill(join(dir, 'store'), list, true, 1);
  const { writeFileSync } = await import('node:fs');
  writeFileSync(join(dir, 'memories.txt'), String(list.length));
  console.log(JSON.stringify({ filled: list.length, ms: Math.round(r.ms), vectors: r.vectors }));
}

const fillDir = argOf('fill');
const childDir = argOf('child');
(fillDir ? fill(fillDir, Number(argOf('memories') ?? '60')) : childDir ? child(join(childDir, 'store')) : Promise.reject(new Error('--fill DIR --memories N, or --child DIR')))
  .catch((e: unknown) => { console.error(e); process.exitCode = 1; });
