import type { ChunkingConfig } from '../config/ingestConfig';

/** Splits text into sentences, keeping their terminal punctuation. */
function sentences(text: string): string[] {
  const out: string[] = [];
  const re = /[^.!?\n]+(?:[.!?]+|\n+|$)/g;
  for (const m of text.matchAll(re)) {
    const s = m[0].trim();
    if (s) out.push(s);
  }
  return out;
}

function hardSplit(s: string, size: number): string[] {
  const parts: string[] = [];
  for (let i = 0; i < s.length; i += size) parts.push(s.slice(i, i + size));
  return parts;
}

/**
 * Auto-chunking: content up to `maxContentChars` stays whole; longer
 * content is packed by sentence toward `chunkTargetChars`; a sentence longer than twice the
 * target is hard-split at the target size; every chunk but the last gets the first
 * `overlapRatio × target` characters of the following chunk appended.
 */
export function chunkContent(text: string, cfg: ChunkingConfig): string[] {
  const trimmed = text.trim();
  if (trimmed.length <= cfg.maxContentChars) return [trimmed];
  const target = cfg.chunkTargetChars;
  const pieces: string[] = [];
  for (const s of sentences(trimmed)) {
    if (s.length > 2 * target) pieces.push(...hardSplit(s, target));
    else pieces.push(s);
  }
  const chunks: string[] = [];
  let current = '';
  for (const p of pieces) {
    if (current && current.length + 1 + p.length > target) {
      chunks.push(current);
      current = p;
    } else {
      current = current ? `${current} ${p}` : p;
    }
  }
  if (current) chunks.push(current);
  const overlap = Math.floor(target * cfg.overlapRatio);
  if (overlap <= 0) return chunks;
  return chunks.map((c, i) => {
    const next = chunks[i + 1];
    return next === undefined ? c : `${c} ${next.slice(0, overlap)}`;
  });
}
