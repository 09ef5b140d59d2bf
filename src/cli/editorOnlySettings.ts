/**
 * Settings the CLI accepts, lists and checks but does not act on, each with what the CLI offers
 * instead (docs/configuration.md, "The CLI"). `config list` labels them so none is silently ignored.
 */
export const EDITOR_ONLY_SETTINGS: Readonly<Record<string, string>> = {
  'log.level': 'the CLI logs warnings; --verbose for more',
  'capture.enabled': 'the CLI records only what you import or send to it (import, session)',
  'capture.importFolder': 'the CLI imports with agent-memory import FILE',
  'tools.confirmWrites': 'the CLI has no language model tools',
  'team.sharedProjects': 'agent-memory team share --project NAME',
  'llm.vscode.vendor': 'only VS Code has chat models; the CLI uses llm.provider openai-compatible',
  'llm.vscode.family': 'only VS Code has chat models; the CLI uses llm.provider openai-compatible',
  'maintenance.scheduleEnabled': 'the CLI runs maintenance when asked: agent-memory maintain',
  'maintenance.intervalHours': 'the CLI runs maintenance when asked: agent-memory maintain',
  'sessions.idleTimeoutMinutes': 'the idle sweep runs in a long-lived host; the CLI ends a session with agent-memory session end',
  'models.hubUrl': 'the CLI downloads no models; it uses a model folder (--models, --cache)',
  'models.downloadTimeoutSeconds': 'the CLI downloads no models; it uses a model folder (--models, --cache)',
};

/** Keys the CLI reads only from some layers, with where it takes them. */
export const PARTLY_HONOURED_SETTINGS: Readonly<Record<string, string>> = {
  'store.path': 'the store folder comes from --store, AGENT_MEMORY_STORE, --set store.path or AGENT_MEMORY_STORE_PATH (config.json lives in the store and cannot move it)',
  'llm.provider': '"vscode" is only available in VS Code; the CLI then runs without a language model',
};

/** The label `config list` shows beside a key, or undefined when the CLI honours it fully. */
export function cliSettingNote(key: string): string | undefined {
  const editorOnly = EDITOR_ONLY_SETTINGS[key];
  if (editorOnly) return `editor only: ${editorOnly}`;
  return PARTLY_HONOURED_SETTINGS[key];
}
