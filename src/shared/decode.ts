/**
 * A tiny decoder library for the Knowledge panel protocol. Each decoder checks one value and
 * returns it typed, or throws a DecodeError naming the path of the first bad field. Used by both
 * sides of the webview boundary, so it stays dependency-free and DOM-free.
 */

export class DecodeError extends Error {
  constructor(readonly path: string, readonly expected: string) {
    super(`${path || 'message'}: expected ${expected}`);
    this.name = 'DecodeError';
  }
}

export type Decoder<T> = (value: unknown, path: string) => T;

export type DecodeResult<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: string };

/** Runs a decoder and turns a DecodeError into a result; other errors propagate (they are bugs). */
export function runDecoder<T>(decoder: Decoder<T>, value: unknown): DecodeResult<T> {
  try {
    return { ok: true, value: decoder(value, '') };
  } catch (e) {
    if (e instanceof DecodeError) return { ok: false, error: e.message };
    throw e;
  }
}

function at(path: string, key: string | number): string {
  return typeof key === 'number' ? `${path}[${key}]` : path ? `${path}.${key}` : key;
}

export function str(minLength: number, maxLength: number): Decoder<string> {
  return (v, path) => {
    if (typeof v !== 'string' || v.length < minLength || v.length > maxLength) {
      throw new DecodeError(path, `a string of ${minLength}–${maxLength} characters`);
    }
    return v;
  };
}

export function int(min: number, max: number): Decoder<number> {
  return (v, path) => {
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
      throw new DecodeError(path, `an integer in [${min}, ${max}]`);
    }
    return v;
  };
}

export function num(min: number, max: number): Decoder<number> {
  return (v, path) => {
    if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max) {
      throw new DecodeError(path, `a finite number in [${min}, ${max}]`);
    }
    return v;
  };
}

export const bool: Decoder<boolean> = (v, path) => {
  if (typeof v !== 'boolean') throw new DecodeError(path, 'a boolean');
  return v;
};

export function oneOf<const T extends readonly string[]>(values: T): Decoder<T[number]> {
  return (v, path) => {
    if (typeof v !== 'string' || !values.includes(v)) throw new DecodeError(path, `one of ${values.join(', ')}`);
    return v as T[number];
  };
}

export function nullable<T>(decoder: Decoder<T>): Decoder<T | null> {
  return (v, path) => (v === null ? null : decoder(v, path));
}

export function array<T>(item: Decoder<T>, maxLength: number): Decoder<T[]> {
  return (v, path) => {
    if (!Array.isArray(v) || v.length > maxLength) throw new DecodeError(path, `an array of at most ${maxLength} items`);
    const out: T[] = new Array<T>(v.length);
    for (let i = 0; i < v.length; i++) out[i] = item(v[i], at(path, i));
    return out;
  };
}

type Shape = Record<string, Decoder<unknown>>;
type Decoded<S extends Shape> = { [K in keyof S]: S[K] extends Decoder<infer T> ? T : never };

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * An object with exactly the listed fields (unknown extra fields are dropped, so nothing
 * unvalidated travels further). Missing fields are errors; use `nullable` for optional data.
 */
export function object<S extends Shape>(shape: S): Decoder<Decoded<S>> {
  const keys = Object.keys(shape);
  return (v, path) => {
    if (!isRecord(v)) throw new DecodeError(path, 'an object');
    const out: Record<string, unknown> = {};
    for (const key of keys) out[key] = (shape[key] as Decoder<unknown>)(v[key], at(path, key));
    return out as Decoded<S>;
  };
}

/** A union discriminated by a string `type` field. */
export function tagged<T extends { readonly type: string }>(variants: { [K in T['type']]: Decoder<Extract<T, { type: K }>> }): Decoder<T> {
  return (v, path) => {
    if (!isRecord(v) || typeof v.type !== 'string') throw new DecodeError(path, 'an object with a string "type"');
    if (!Object.prototype.hasOwnProperty.call(variants, v.type)) throw new DecodeError(at(path, 'type'), `a known message type, not "${v.type.slice(0, 40)}"`);
    return (variants as Record<string, Decoder<T>>)[v.type]!(v, path);
  };
}

/** Narrows a decoded value with an extra check (for cross-field rules). */
export function refine<T>(decoder: Decoder<T>, check: (value: T) => boolean, expected: string): Decoder<T> {
  return (v, path) => {
    const value = decoder(v, path);
    if (!check(value)) throw new DecodeError(path, expected);
    return value;
  };
}
