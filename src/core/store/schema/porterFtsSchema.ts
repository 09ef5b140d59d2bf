/**
 * Migration 23: memories_fts tokenised with Porter stemming ('porter unicode61'), so "paintings",
 * "painted" and "painting" are one term of the lexical arm (docs/recall-design.md gives the
 * measured effect). unicode61 still splits and folds the text; porter only stems plain ASCII
 * words, so identifiers with digits or underscores ("http2", "snake_case"), non-Latin text and the
 * CJK probe (memories_cjk, migration 21) are unchanged. The query side needs nothing: FTS5 stems
 * query terms with the table's tokenizer; term probing stems with porterStemmer.ts to agree.
 *
 * An external-content FTS5 table cannot change tokenizer in place: the migration drops the
 * vocabulary view (migration 22, it reads this index) and the index, creates both again and
 * rebuilds the index from memories. The triggers of migration 1 insert into memories_fts by name
 * and keep working. Self-contained and idempotent: it touches only these two tables.
 */
import type { Migration } from '../migrations';
import { runAll } from './coreSchema';

export const PORTER_FTS_MIGRATION_VERSION = 23;

export const PORTER_FTS_MIGRATION: Migration = {
  version: PORTER_FTS_MIGRATION_VERSION,
  name: 'memories_fts: Porter stemming (porter unicode61), index rebuilt from memories',
  up(db) {
    runAll(db, [
      'DROP TABLE IF EXISTS memories_fts_vocab',
      'DROP TABLE IF EXISTS memories_fts',
      "CREATE VIRTUAL TABLE memories_fts USING fts5(content, content='memories', content_rowid='rowid', tokenize='porter unicode61')",
      "INSERT INTO memories_fts(memories_fts) VALUES ('rebuild')",
      "CREATE VIRTUAL TABLE IF NOT EXISTS memories_fts_vocab USING fts5vocab(memories_fts, 'row')",
    ]);
  },
};
