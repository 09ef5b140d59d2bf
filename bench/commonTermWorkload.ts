/**
 * The common-term workload of issue 26 (docs/store.md, "Common-term recall"): memories over a small
 * vocabulary where every significant word is held by 5–25 % of the memories, and queries made of
 * those words only ("what about database and billing in the service"). Real stores have such
 * words ("service", "test", "error", a project's own name); they are the queries whose lexical
 * arm used to rank every row holding them. Deterministic (own seeded generator).
 */

/** The significant words; word i is held by about `docShare(i)` of the memories. */
export const COMMON_VOCABULARY: readonly string[] = [
  'database', 'billing', 'service', 'deploy', 'cache', 'queue', 'login', 'payment', 'invoice', 'report',
  'account', 'token', 'session', 'error', 'timeout', 'retry', 'schema', 'migration', 'index', 'backup',
  'cluster', 'config', 'secret', 'build', 'release', 'monitor', 'alert', 'metric', 'latency', 'gateway',
];

/** Share of memories holding word i: spread evenly over [0.05, 0.25]. */
export function docShare(i: number): number {
  return 0.05 + 0.2 * (i / (COMMON_VOCABULARY.length - 1));
}

const FILLER = ['the', 'and', 'for', 'in', 'with', 'of', 'on', 'to', 'a', 'we', 'it', 'is'];

export interface CommonTermWorkload {
  note(i: number): string;
  query(i: number): string;
}

/** A generator of notes and queries over COMMON_VOCABULARY, seeded. */
export function commonTermWorkload(seed = 2026): CommonTermWorkload {
  let s = seed;
  const rnd = (): number => { s = (s * 1103515245 + 12345) % 2 ** 31; return s / 2 ** 31; };
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T;
  return {
    note(i: number): string {
      const words: string[] = [];
      COMMON_VOCABULARY.forEach((w, k) => { if (rnd() < docShare(k)) words.push(w); });
      if (words.length === 0) words.push(pick(COMMON_VOCABULARY));
      // Some words twice, and stop-word filler of varying length, so term frequency and length vary.
      if (rnd() < 0.3) words.push(pick(words));
      const out: string[] = [];
      for (const w of words.sort(() => rnd() - 0.5)) { out.push(w); for (let f = Math.floor(rnd() * 3); f > 0; f--) out.push(pick(FILLER)); }
      return `${out.join(' ')} (note ${i})`;
    },
    query(i: number): string {
      const k = 2 + (i % 3);
      const ws: string[] = [];
      while (ws.length < k) { const w = pick(COMMON_VOCABULARY); if (!ws.includes(w)) ws.push(w); }
      const [a, b, c, d] = ws as [string, string, string?, string?];
      switch (i % 4) {
        case 0: return `what about ${a} and ${b}${c ? ` in the ${c}` : ''}`;
        case 1: return `${a} ${b}${c ? ` ${c}` : ''}${d ? ` ${d}` : ''}`;
        case 2: return `how is the ${a} of the ${b}${c ? ` with ${c}` : ''}`;
        default: return `${a} with ${b}${c ? ` for ${c}` : ''}`;
      }
    },
  };
}
