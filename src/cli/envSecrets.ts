/**
 * The CLI's SecretStore (src/core/hostContext.ts): read-only environment variables, so a secret is
 * never written to disk or typed on a command line that lands in shell history. The LLM API key is
 * AGENT_MEMORY_LLM_KEY; a team password is PGPASSWORD (when unset, pg reads ~/.pgpass itself,
 * docs/team.md).
 */
import { MemoryError } from '../core/errors';
import type { SecretStore } from '../core/hostContext';
import { LLM_API_KEY_SECRET } from '../core/llm/configuredLlm';
import { TEAM_PASSWORD_SECRET_PREFIX } from '../core/team/teamSecret';

export const LLM_KEY_ENV = 'AGENT_MEMORY_LLM_KEY';
export const TEAM_PASSWORD_ENV = 'PGPASSWORD';

/** The environment variable holding a secret key, or undefined for a key the CLI does not know. */
export function secretEnvVar(key: string): string | undefined {
  if (key === LLM_API_KEY_SECRET) return LLM_KEY_ENV;
  if (key.startsWith(TEAM_PASSWORD_SECRET_PREFIX)) return TEAM_PASSWORD_ENV;
  return undefined;
}

export function envSecretStore(env: NodeJS.ProcessEnv = process.env): SecretStore {
  const refuse = async (key: string): Promise<never> => {
    const name = secretEnvVar(key);
    throw new MemoryError('E_USAGE', `The CLI never stores secrets${name ? `: set the ${name} environment variable instead` : ''}.`);
  };
  return {
    get: async (key) => {
      const name = secretEnvVar(key);
      const value = name ? env[name] : undefined;
      return value ? value : undefined;
    },
    set: (key) => refuse(key),
    delete: (key) => refuse(key),
  };
}
