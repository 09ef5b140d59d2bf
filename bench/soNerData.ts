/**
 * Reader for the StackOverflow NER data (`../shared/datasets/so-ner/`, CoNLL-like: one token a line,
 * `word \t BIO-tag \t word \t markdown-tag`, a whitespace-only line ends a sentence). Used by the
 * entity bench (dev.txt) and the tagger training script (train.txt); the sentences are read from
 * there at run time and never copied into the repository. The type map below is documented in
 * docs/extraction.md.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EntityType } from '../src/core/config/extractionConfig';

/** The data folder: AGENT_MEMORY_SO_NER, else `../shared/datasets/so-ner` next to the repository. */
export function soNerDir(): string {
  return process.env.AGENT_MEMORY_SO_NER ?? join(__dirname, '..', '..', 'shared', 'datasets', 'so-ner');
}

export interface SoNerSpan {
  /** Token range [start, end). */
  readonly start: number;
  readonly end: number;
  /** The dataset's type, e.g. `Library_Class`. */
  readonly label: string;
}

export interface SoNerSentence {
  readonly tokens: readonly string[];
  readonly spans: readonly SoNerSpan[];
}

/**
 * Dataset types → project entity types. Types absent from the map (Code_Block and Output_Block are
 * placeholders for omitted code; Value, Data_Type, Data_Structure, User_Interface_Element,
 * HTML_XML_Tag, Keyboard_IP, Version, Licence are literals, common nouns or properties with no
 * entity type in the project) are not gold entities: extracting one counts as a false positive.
 */
export const SO_NER_TYPE_MAP: Readonly<Record<string, EntityType>> = {
  Application: 'tool',
  Language: 'tool',
  Library: 'package',
  Operating_System: 'system',
  Device: 'system',
  Website: 'system',
  Organization: 'unknown',
  User_Name: 'person',
  File_Name: 'file',
  File_Type: 'concept',
  Algorithm: 'concept',
  Library_Class: 'symbol',
  Library_Function: 'symbol',
  Library_Variable: 'symbol',
  Class_Name: 'symbol',
  Function_Name: 'symbol',
  Variable_Name: 'symbol',
  Error_Name: 'symbol',
};

/** Reads one split; `undefined` when the file is absent (callers say so and skip). */
export function readSoNer(split: 'train' | 'dev'): SoNerSentence[] | undefined {
  const file = join(soNerDir(), `${split}.txt`);
  if (!existsSync(file)) return undefined;
  const out: SoNerSentence[] = [];
  let tokens: string[] = [];
  let tags: string[] = [];
  const flush = (): void => {
    if (!tokens.length) return;
    const spans: SoNerSpan[] = [];
    let open: { start: number; label: string } | undefined;
    const close = (end: number): void => { if (open) spans.push({ start: open.start, end, label: open.label }); open = undefined; };
    tags.forEach((tag, i) => {
      const [bio, label = ''] = tag.split(/-(.*)/s);
      if (bio === 'B' || (bio === 'I' && open?.label !== label)) { close(i); open = { start: i, label }; }
      else if (bio !== 'I') close(i);
    });
    close(tags.length);
    out.push({ tokens, spans });
    tokens = []; tags = [];
  };
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) { flush(); continue; }
    const [word = '', tag = 'O'] = line.split('\t');
    tokens.push(word);
    tags.push(tag.trim() || 'O');
  }
  flush();
  return out;
}

/** True for the dataset's header lines (`Question_ID : 123`, `Question_URL : https://...`). */
export const isHeaderSentence = (s: SoNerSentence): boolean => /^(?:Question_ID|Question_URL|Answer_to_Question_ID)$/.test(s.tokens[0] ?? '');

/** Tokens joined back into text: no space before closing punctuation or after an opening bracket. */
export function sentenceText(tokens: readonly string[]): string {
  let text = '';
  tokens.forEach((t, i) => {
    const glue = i === 0 || /^[.,;:!?)\]}]$/.test(t) || /^[([{]$/.test(tokens[i - 1] ?? '');
    text += (glue ? '' : ' ') + t;
  });
  return text;
}

/**
 * Matching key: lowercase, all whitespace removed (so `foo ( )` and `foo()` match) and trailing
 * call parentheses dropped (`printList()` and `printList` name the same function).
 */
export const matchKey = (name: string): string => name.toLowerCase().replace(/\s+/g, '').replace(/\(\)$/, '');
