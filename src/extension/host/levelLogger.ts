/**
 * The core services' logger: the Agent Memory output channel filtered by agentMemory.log.level
 * (read on every call, so a change applies at once). vscode-free.
 */
import type { Logger, LogLevel } from '../../core/logger';

export const LOG_LEVELS: readonly LogLevel[] = ['trace', 'debug', 'info', 'warn', 'error'];

export function isLogLevel(v: unknown): v is LogLevel {
  return typeof v === 'string' && (LOG_LEVELS as readonly string[]).includes(v);
}

export function levelLogger(target: Logger, level: () => LogLevel): Logger {
  const on = (l: LogLevel): boolean => LOG_LEVELS.indexOf(l) >= LOG_LEVELS.indexOf(level());
  return {
    trace: (m, ...a) => { if (on('trace')) target.trace(m, ...a); },
    debug: (m, ...a) => { if (on('debug')) target.debug(m, ...a); },
    info: (m, ...a) => { if (on('info')) target.info(m, ...a); },
    warn: (m, ...a) => { if (on('warn')) target.warn(m, ...a); },
    error: (m, ...a) => { if (on('error')) target.error(m, ...a); },
  };
}
