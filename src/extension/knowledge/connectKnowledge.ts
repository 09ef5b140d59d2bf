/**
 * Connects the Knowledge panels to the memory runtime: the store opens lazily on the panel's first
 * request, and every (re)opened runtime (new store folder, new settings) gets a fresh data source.
 * vscode-free: it takes the runtime's shape structurally, so activate() can pass `services`.
 */
import type { Clock } from '../../core/clock';
import type { FeedbackTelemetrySnapshot } from '../../core/feedback/feedbackTelemetry';
import type { RecallDeps } from '../../core/recall/recallRequest';
import type { Disposable, MemoryStore } from '../../core/store/storeTypes';
import { StoreKnowledgeSource } from './storeKnowledgeSource';
import type { FocalSnapshot } from './storeKnowledgeSource';
import type { SwitchableKnowledgeSource } from './switchableSource';

/** What the panel needs of a runtime (MemoryRuntime satisfies it). */
export interface KnowledgeRuntime {
  readonly store: MemoryStore;
  recallDeps(): RecallDeps;
}

export interface KnowledgeConnection {
  /** Opens (or returns) the runtime; rejects with a coded MemoryError. */
  runtime(): Promise<KnowledgeRuntime>;
  /** Fires when a runtime was opened or rebuilt. */
  onDidOpenRuntime(listener: (rt: KnowledgeRuntime) => void): Disposable;
  readonly clock: Clock;
  readonly agentId?: string;
  readonly telemetry?: () => FeedbackTelemetrySnapshot;
  readonly lastFocal?: () => FocalSnapshot | undefined;
}

export function connectKnowledge(target: SwitchableKnowledgeSource, c: KnowledgeConnection): Disposable {
  let current: { store: MemoryStore; source: StoreKnowledgeSource } | undefined;
  const sourceFor = (rt: KnowledgeRuntime): StoreKnowledgeSource => {
    if (current?.store === rt.store) return current.source;
    current?.source.dispose();
    const source = new StoreKnowledgeSource({
      store: rt.store, clock: c.clock, agentId: c.agentId, telemetry: c.telemetry, lastFocal: c.lastFocal, recallDeps: rt.recallDeps(),
    });
    current = { store: rt.store, source };
    return source;
  };
  target.setOpener(async () => sourceFor(await c.runtime()));
  const sub = c.onDidOpenRuntime((rt) => target.set(sourceFor(rt)));
  return {
    dispose: () => {
      sub.dispose();
      target.setOpener(undefined);
      if (current) target.clear(current.source);
      current?.source.dispose();
      current = undefined;
    },
  };
}
