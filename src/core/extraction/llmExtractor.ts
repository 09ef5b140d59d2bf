import { EDGE_KINDS, ENTITY_TYPES, FACT_TYPES } from '../config/extractionConfig';
import type { ExtractionConfig } from '../config/extractionConfig';
import type { LlmClient } from '../hostContext';
import type { Logger } from '../logger';
import { validateExtractionPayload } from './contract';
import type { ContractIssue, ExtractionPayload } from './contract';
import { heuristicExtract } from './heuristicExtractor';
import type { ExtractionContext } from './heuristicExtractor';
import { aliasResolverFor, canonicalizePayload } from './entityAliases';
import { mentionVocabularyFor } from './entityMentions';
import { parseLlmJson } from './llmJson';

/** Where an extraction result came from. */
export type ExtractionSource = 'llm' | 'heuristic' | 'heuristic-fallback';

export interface ExtractionResult {
  readonly payload: ExtractionPayload;
  readonly source: ExtractionSource;
  /** Contract issues of the LLM answer (dropped items), or why the fallback was used. */
  readonly issues: readonly ContractIssue[];
}

/** One extraction strategy; the job handler only sees this. */
export interface Extractor {
  readonly label: string;
  extract(text: string, signal?: AbortSignal, context?: ExtractionContext): Promise<ExtractionResult>;
}

export function extractionPrompt(text: string): string {
  return [
    'Extract durable knowledge from the note below for a coding agent\'s memory.',
    'Return ONE JSON object with up to three optional arrays and no other properties:',
    `"entities": [{"name": string, "type": one of ${ENTITY_TYPES.join('|')}, "description": string}]`,
    `"relations": [{"from": entity name, "to": entity name, "type": one of ${EDGE_KINDS.join('|')}, "instruction": string}]`,
    `"facts": [{"entity": entity name, "type": one of ${FACT_TYPES.join('|')}, "content": self-contained sentence, "aspect": short topic, "group_key": string|null, "claim_key": string|null, "importance": 0..1, "confidence": 0..1}]`,
    'Rules: relations and facts may only name entities declared in "entities". Use the same aspect, group_key and claim_key',
    'for statements that answer the same question (e.g. aspect "dependencies", group_key "uses", claim_key "database"), so a newer',
    'statement replaces an older one. Use type "constraint" for rules that must always hold. Declare nothing for chit-chat.',
    'Example: {"entities":[{"name":"API","type":"system","description":"the backend HTTP API"},{"name":"PostgreSQL","type":"tool","description":"database"}],',
    '"relations":[{"from":"API","to":"PostgreSQL","type":"uses","instruction":"the API stores its data in PostgreSQL"}],',
    '"facts":[{"entity":"API","type":"fact","content":"The API uses PostgreSQL.","aspect":"dependencies","group_key":"uses","claim_key":"database","importance":0.6,"confidence":0.9}]}',
    'Note:',
    text,
  ].join('\n');
}

const looksLikePayload = (v: Record<string, unknown>): boolean => 'entities' in v || 'relations' in v || 'facts' in v || Object.keys(v).length === 0;

/** Parses and validates an LLM answer; undefined when nothing usable was found. */
export function parseExtractionAnswer(answer: string, cfg: ExtractionConfig): { payload: ExtractionPayload; issues: readonly ContractIssue[] } | undefined {
  const obj = parseLlmJson(answer, looksLikePayload);
  if (!obj) return undefined;
  const result = validateExtractionPayload(obj, cfg);
  return { payload: result.payload, issues: result.issues };
}

export function createHeuristicExtractor(cfg: ExtractionConfig): Extractor {
  return {
    label: 'heuristic',
    extract: async (text, _signal, context) => ({ payload: heuristicExtract(text, cfg, mentionVocabularyFor(cfg.workspace), context), source: 'heuristic', issues: [] }),
  };
}

/**
 * LLM extraction with the heuristic as fallback: a failed call, a timeout or an answer with no
 * recognisable JSON object falls back to the heuristic result; nothing here rejects.
 */
export function createLlmExtractor(llm: LlmClient, cfg: ExtractionConfig, logger: Logger): Extractor {
  return {
    label: `llm: ${llm.label}`,
    extract: async (text, signal, context) => {
      const input = text.replace(/\s+/g, ' ').trim().slice(0, cfg.maxInputChars);
      const fallback = (why: string): ExtractionResult => ({ payload: heuristicExtract(text, cfg, mentionVocabularyFor(cfg.workspace), context), source: 'heuristic-fallback', issues: [{ path: '', message: why }] });
      let answer: string;
      try {
        answer = await llm.complete(extractionPrompt(input), { timeoutMs: cfg.llmTimeoutMs, ...(signal ? { signal } : {}) });
      } catch (e) {
        logger.warn(`extraction via ${llm.label} failed, using the heuristic extractor: ${e instanceof Error ? e.message : String(e)}`);
        return fallback('llm call failed');
      }
      const parsed = parseExtractionAnswer(answer, cfg);
      if (!parsed) {
        logger.warn(`extraction via ${llm.label} returned no usable JSON, using the heuristic extractor`);
        return fallback('unparsable llm answer');
      }
      return { payload: canonicalizePayload(parsed.payload, aliasResolverFor(cfg.aliases)), source: 'llm', issues: parsed.issues };
    },
  };
}
