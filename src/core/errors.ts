/**
 * Coded errors. Every failure that can reach a user carries a stable code and a one-line,
 * human message; adapters (extension, CLI) show `message` and never a stack trace.
 */
export type MemoryErrorCode =
  | 'E_USAGE'
  | 'E_NOT_FOUND'
  | 'E_INVALID_INPUT'
  | 'E_STORE_LOCKED'
  | 'E_STORE_NEWER_SCHEMA'
  | 'E_STORE_CORRUPT'
  | 'E_STORE_IO'
  | 'E_STORE_READONLY'
  | 'E_DISK_FULL'
  | 'E_MODEL_MISSING'
  | 'E_MODEL_LOAD'
  | 'E_MODEL_DOWNLOAD'
  | 'E_OFFLINE'
  | 'E_TIMEOUT'
  | 'E_CANCELLED'
  | 'E_FETCH_REFUSED'
  | 'E_FETCH_FAILED'
  | 'E_LLM_UNAVAILABLE'
  | 'E_TEAM_AUTH'
  | 'E_TEAM_OFFLINE'
  | 'E_TEAM_REFUSED'
  | 'E_TEAM_SERVER'
  | 'E_TEAM_NOT_CONNECTED'
  | 'E_INTERNAL';

export class MemoryError extends Error {
  readonly code: MemoryErrorCode;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: MemoryErrorCode, message: string, details?: Record<string, unknown>, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'MemoryError';
    this.code = code;
    this.details = details;
  }
}

export function isMemoryError(e: unknown, code?: MemoryErrorCode): e is MemoryError {
  return e instanceof MemoryError && (code === undefined || e.code === code);
}

/**
 * Turns anything thrown into a one-line message fit for a user: coded errors keep their
 * message, everything else is wrapped so no stack trace or raw SQL error text leaks out.
 */
export function userMessage(e: unknown): string {
  if (e instanceof MemoryError) return e.message;
  if (e instanceof Error) {
    const first = e.message.split('\n')[0] ?? 'unknown error';
    return `Unexpected error: ${first}`;
  }
  return `Unexpected error: ${String(e)}`;
}
