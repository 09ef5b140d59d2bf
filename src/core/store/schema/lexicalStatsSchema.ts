/**
 * Migration 22: memories_fts_vocab, an fts5vocab view ('row': documents per term) over
 * memories_fts. No storage of its own and nothing to backfill: it reads the FTS index. The lexical
 * arm asks it how many memories hold each query term, so very common terms do not make FTS rank
 * a third of the store (bench/recall.ts: a common word made the OR query cost ~70 ms at 100k).
 */
import type { Migration } from '../migrations';
import { runAll } from './coreSchema';

export const LEXICAL_STATS_MIGRATION_VERSION = 22;

export const LEXICAL_STATS_MIGRATION: Migration = {
  version: LEXICAL_STATS_MIGRATION_VERSION,
  name: 'memories_fts_vocab: fts5vocab (row) over memories_fts for per-term document counts',
  up(db) {
    runAll(db, ["CREATE VIRTUAL TABLE IF NOT EXISTS memories_fts_vocab USING fts5vocab(memories_fts, 'row')"]);
  },
};
