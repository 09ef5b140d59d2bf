/**
 * Wraps the configured embedder to know its state for the status bar: created (nothing loaded
 * yet), ready (an embed succeeded), or failed (with the user message of the last failure).
 * vscode-free.
 */
import { userMessage } from '../errors';
import type { EmbedOptions, Embedder } from '../models/embedder';

export type ModelState =
  | { readonly state: 'notLoaded'; readonly model: string }
  | { readonly state: 'ready'; readonly model: string }
  | { readonly state: 'failed'; readonly model: string; readonly message: string }
  | { readonly state: 'missing'; readonly model: string; readonly message: string };

export class TrackedEmbedder implements Embedder {
  private current: ModelState;

  constructor(private readonly inner: Embedder) {
    this.current = { state: 'notLoaded', model: inner.id };
  }

  get id(): string { return this.inner.id; }
  get dims(): number { return this.inner.dims; }
  get state(): ModelState { return this.current; }

  async embed(texts: readonly string[], options?: EmbedOptions): Promise<Float32Array[]> {
    try {
      const out = await this.inner.embed(texts, options);
      if (this.current.state !== 'ready') this.current = { state: 'ready', model: this.inner.id };
      return out;
    } catch (e) {
      if (!(e instanceof Error && 'code' in e && (e as { code: unknown }).code === 'E_CANCELLED')) {
        this.current = { state: 'failed', model: this.inner.id, message: userMessage(e) };
      }
      throw e;
    }
  }

  dispose(): Promise<void> {
    this.current = { state: 'notLoaded', model: this.inner.id };
    return this.inner.dispose();
  }
}
