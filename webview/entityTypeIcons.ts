/**
 * One codicon per entity type (the types of src/core/config/extractionConfig.ts ENTITY_TYPES), used
 * by the graph tree (ThemeIcon by name) and the Knowledge panel (the glyph of VS Code's own
 * codicon font, which the host hands the webview; see knowledgeView.ts). The code points are the
 * codicon font's, as VS Code registers them (its codiconsLibrary).
 */
export interface EntityTypeIcon {
  /** Codicon name, e.g. "symbol-class" (ThemeIcon id). */
  readonly name: string;
  /** Code point of the glyph in codicon.ttf. */
  readonly codePoint: number;
}

export const ENTITY_TYPE_ICONS: Readonly<Record<string, EntityTypeIcon>> = {
  person: { name: 'person', codePoint: 0xea67 },
  project: { name: 'project', codePoint: 0xeb30 },
  system: { name: 'server-process', codePoint: 0xeba2 },
  tool: { name: 'tools', codePoint: 0xeb6d },
  concept: { name: 'lightbulb', codePoint: 0xea61 },
  skill: { name: 'mortar-board', codePoint: 0xeb21 },
  task: { name: 'tasklist', codePoint: 0xeb67 },
  event: { name: 'calendar', codePoint: 0xeab0 },
  file: { name: 'file', codePoint: 0xea7b },
  package: { name: 'package', codePoint: 0xeb29 },
  url: { name: 'link', codePoint: 0xeb15 },
  symbol: { name: 'symbol-class', codePoint: 0xeb5b },
  format: { name: 'json', codePoint: 0xeb0f },
};

/** For "unknown" and any type an LLM extractor invents. */
export const UNKNOWN_TYPE_ICON: EntityTypeIcon = { name: 'question', codePoint: 0xeb32 };

export function entityTypeIcon(type: string): EntityTypeIcon {
  return Object.prototype.hasOwnProperty.call(ENTITY_TYPE_ICONS, type) ? ENTITY_TYPE_ICONS[type] as EntityTypeIcon : UNKNOWN_TYPE_ICON;
}
