/**
 * Migration 21: memories_cjk, the CJK probe's index ("for CJK text choose and
 * measure a method"). unicode61 keeps a CJK run as one token, so the lexical arm probes CJK terms
 * as substrings; before this table that was an instr() scan over every live memory (83 ms p95 at
 * 100k in bench/recall.ts). memories_cjk holds (memory rowid, content) for the memories whose
 * content contains a CJK character, so the probe scans only those, with the same results: a CJK
 * term can only occur in content holding a CJK character.
 *
 * Kept by triggers (insert, delete, UPDATE OF content), so every write path (insertMemory, forget,
 * content edits, imports, replicas replaying the journal) keeps it without code of its own, and
 * metadata updates (access counts, pinning, soft delete) never touch it. The migration backfills
 * existing rows; every statement is idempotent.
 */
import type { Migration } from '../migrations';
import { runAll } from './coreSchema';

/**
 * The CJK ranges of hasCjk() in src/core/recall/queryTerms.ts (kana, CJK extension A, unified
 * ideographs, compatibility ideographs, Hangul syllables) as a GLOB character class.
 */
export const CJK_GLOB = '*[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]*';

const CJK_INDEX = [
  'CREATE TABLE IF NOT EXISTS memories_cjk (memory_rowid INTEGER PRIMARY KEY, content TEXT NOT NULL)',
  `CREATE TRIGGER IF NOT EXISTS memories_cjk_ai AFTER INSERT ON memories WHEN new.content GLOB '${CJK_GLOB}' BEGIN
     INSERT OR REPLACE INTO memories_cjk (memory_rowid, content) VALUES (new.rowid, new.content);
   END`,
  `CREATE TRIGGER IF NOT EXISTS memories_cjk_ad AFTER DELETE ON memories BEGIN
     DELETE FROM memories_cjk WHERE memory_rowid = old.rowid;
   END`,
  `CREATE TRIGGER IF NOT EXISTS memories_cjk_au AFTER UPDATE OF content ON memories BEGIN
     DELETE FROM memories_cjk WHERE memory_rowid = old.rowid;
     INSERT OR REPLACE INTO memories_cjk (memory_rowid, content) SELECT new.rowid, new.content WHERE new.content GLOB '${CJK_GLOB}';
   END`,
  `INSERT OR REPLACE INTO memories_cjk (memory_rowid, content) SELECT rowid, content FROM memories WHERE content GLOB '${CJK_GLOB}'`,
];

export const CJK_INDEX_MIGRATION_VERSION = 21;

export const CJK_INDEX_MIGRATION: Migration = {
  version: CJK_INDEX_MIGRATION_VERSION,
  name: 'memories_cjk: content of CJK-bearing memories for the lexical CJK probe (triggers + backfill)',
  up(db) {
    runAll(db, CJK_INDEX);
  },
};
