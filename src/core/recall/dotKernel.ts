/**
 * A WebAssembly SIMD kernel for the vector arm: out[r] = dot(row r, query) as a 32-bit integer,
 * over a packed matrix of int8 rows (the store's own int8 codes, vectorMatrix.ts) and a query
 * quantised to int16, two i32x4 accumulators of i32x4.dot_i16x8_s, 16 dimensions per step (dims
 * must be a multiple of 16). A quarter of the memory a float32 matrix read per query, and at 10k
 * and 100k rows of 512 dimensions 2–3× faster than the float32 kernel it replaced (docs/store.md,
 * "Recall latency, fourth round"). The 258-byte module below was assembled with wat2wasm (wabt
 * 1.0.36, `--enable-simd`) from dotKernel.wat beside this file; unit tests check it against the JS
 * integer dot product. In outline:
 *
 *   (func (export "dots8q") (param $m i32) (param $q i32) (param $rows i32) (param $dims i32) (param $out i32)
 *     for r in [0, rows): a0 = a1 = 0; for p in row r step 16 bytes (q advancing 32 bytes):
 *       v = load(p); a0 += dot_i16x8_s(extend_low_i8x16_s(v), load(q)); a1 += dot_i16x8_s(extend_high_i8x16_s(v), load(q+16))
 *     out[r] = horizontal sum of (a0 + a1) as i32)
 *   with the memory imported as env.memory.
 */
const DOT_KERNEL_BASE64 = 'AGFzbQEAAAABCQFgBX9/f39/AAIPAQNlbnYGbWVtb3J5AgABAwIBAAcKAQZkb3RzOHEAAArLAQHIAQIEfwN7IAAhBgJAA0AgBSACTw0B/QwAAAAAAAAAAAAAAAAAAAAAIQn9DAAAAAAAAAAAAAAAAAAAAAAhCiABIQcgBiADaiEIA0AgBv0ABAAhCyAJIAv9hwEgB/0ABAD9ugH9rgEhCSAKIAv9iAEgB/0ABBD9ugH9rgEhCiAGQRBqIQYgB0EgaiEHIAYgCEkNAAsgCSAK/a4BIQkgBCAFQQJ0aiAJ/RsAIAn9GwFqIAn9GwIgCf0bA2pqNgIAIAVBAWohBQwACwsL';

/** The slice of the WebAssembly API used here (the core's lib settings carry no DOM/wasm types). */
interface WasmMemory { readonly buffer: ArrayBuffer; grow(pages: number): number }
interface WasmApi {
  Memory: new (descriptor: { initial: number }) => WasmMemory;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
}

export interface DotKernel {
  readonly memory: WasmMemory;
  /** Integer dot products of `rows` int8 rows at `matrixOffset` with the int16 query at `queryOffset`, as int32 at `outOffset`. */
  dots(matrixOffset: number, queryOffset: number, rows: number, dims: number, outOffset: number): void;
}

/** Instantiates the kernel over a fresh memory, or undefined when WebAssembly SIMD is unavailable. */
export function createDotKernel(initialPages = 1): DotKernel | undefined {
  const wasm = (globalThis as unknown as { WebAssembly?: WasmApi }).WebAssembly;
  if (!wasm) return undefined;
  try {
    const memory = new wasm.Memory({ initial: initialPages });
    const module = new wasm.Module(Buffer.from(DOT_KERNEL_BASE64, 'base64'));
    const instance = new wasm.Instance(module, { env: { memory } });
    const dots = instance.exports.dots8q as (m: number, q: number, rows: number, dims: number, out: number) => void;
    return { memory, dots };
  } catch {
    return undefined;
  }
}

/**
 * Whether the kernel can serve vectors of this width: a multiple of 16, and narrow enough that a
 * row's integer dot product cannot overflow 32 bits with a query quantised to at least 8 bits
 * (vectorMatrix.ts picks the query's scale from the width).
 */
export function kernelSupports(dims: number): boolean {
  return dims % 16 === 0 && dims > 0 && dims * 127 * 127 <= 0x7fffffff;
}
