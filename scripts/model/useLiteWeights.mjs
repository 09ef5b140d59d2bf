// Reads the TF.js USE-lite weights (model.json manifest + shards) into named typed arrays.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const PREFIX_RE = /^(module_apply_default\/Encoder_en\/KonaTransformer\/|module\/Encoder_en\/KonaTransformer\/|module\/|module_apply_default\/Encoder_en\/)/;

/** Returns Map<shortName, { shape, data: Float32Array | Int32Array }> with the module prefixes removed. */
export function readUseLiteWeights(dir) {
  const manifest = JSON.parse(readFileSync(join(dir, 'model.json'), 'utf8')).weightsManifest;
  const weights = new Map();
  for (const group of manifest) {
    const buf = Buffer.concat(group.paths.map((p) => readFileSync(join(dir, p))));
    let offset = 0;
    for (const w of group.weights) {
      if (w.quantization) throw new Error(`quantised weight not supported: ${w.name}`);
      const n = w.shape.reduce((a, b) => a * b, 1);
      const bytes = buf.subarray(offset, offset + 4 * n);
      const copy = new ArrayBuffer(bytes.length);
      new Uint8Array(copy).set(bytes);
      const data = w.dtype === 'float32' ? new Float32Array(copy) : new Int32Array(copy);
      weights.set(w.name.replace(PREFIX_RE, ''), { shape: w.shape, data });
      offset += 4 * n;
    }
  }
  return weights;
}

/** The named weight, or a clear error naming what is missing. */
export function pick(weights, name) {
  const w = weights.get(name);
  if (!w) throw new Error(`USE-lite weight not found: ${name}`);
  return w;
}
