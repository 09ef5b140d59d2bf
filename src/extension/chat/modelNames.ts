/**
 * The names of the two kinds of model a user meets (issue #27, "one name for the model that
 * composes answers everywhere"): the **chat model** composes @memory answers and is picked in the
 * chat view (Agent Memory offers MEMORY_ONLY_MODEL_NAME there while VS Code has none); the
 * **extraction model** is Agent Memory's own `agentMemory.llm.*` (facts, hints, reranking). The
 * picker, Status, the settings, the commands and the README use these names
 * (test/unit/extensionWiring/modelNames.test.ts). vscode-free.
 */

/** The memory-only chat model's name in the chat view's model picker (memoryOnlyModel.ts). */
export const MEMORY_ONLY_MODEL_NAME = 'Agent Memory (no chat model)';

/** Status's line about the model that composes @memory answers. */
export const CHAT_MODEL_STATUS_LINE = `Chat model (composes @memory answers): the one picked in the chat view; "${MEMORY_ONLY_MODEL_NAME}" while VS Code has none`;

/** Status's label of `agentMemory.llm.*`. */
export const EXTRACTION_MODEL_LABEL = 'Extraction model (agentMemory.llm)';
