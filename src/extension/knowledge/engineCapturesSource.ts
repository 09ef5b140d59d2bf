/**
 * The Captured tab's data over the memory engine: the engine's own query of captured memories
 * (core/capture/agentCapture.ts recentCaptures, agentActivity) and the same Forget and
 * Wrong/outdated actions as `@memory` and the Recently Captured tree (actions/memoryActions.ts).
 * vscode-free: the engine comes from a function (the window opens its store on first use).
 */
import type { MemoryEngine } from '../../core/engine/memoryEngine';
import type { MemoryStore } from '../../core/store/storeTypes';
import type { CapturedMemory } from '../../core/capture/agentCaptureTypes';
import { forget, markWrong } from '../actions/memoryActions';
import type { CapturesSource } from './capturesController';

export class EngineCapturesSource implements CapturesSource {
  constructor(private readonly engine: () => Promise<MemoryEngine<MemoryStore>>) {}

  async recentCaptures(limit: number): Promise<readonly CapturedMemory[]> {
    return (await this.engine()).recentCaptures({ limit });
  }

  async capturedToday(): Promise<number> {
    return (await (await this.engine()).agentActivity()).reduce((n, a) => n + a.capturedToday, 0);
  }

  async forget(id: string): Promise<void> {
    await forget(await this.engine(), id);
  }

  async markWrong(id: string): Promise<{ readonly changed: boolean; readonly aspectsLowered: number }> {
    return markWrong(await this.engine(), id);
  }
}
