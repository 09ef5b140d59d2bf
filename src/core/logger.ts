/**
 * Logger shaped like VS Code's LogOutputChannel, so the extension can pass its channel
 * straight through and the core, CLI and tests can pass plain implementations.
 */
export interface Logger {
  trace(message: string, ...args: unknown[]): void;
  debug(message: string, ...args: unknown[]): void;
  info(message: string, ...args: unknown[]): void;
  warn(message: string, ...args: unknown[]): void;
  error(error: string | Error, ...args: unknown[]): void;
}

export type LogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error';

const order: Record<LogLevel, number> = { trace: 0, debug: 1, info: 2, warn: 3, error: 4 };

/** A logger that drops everything. */
export const silentLogger: Logger = {
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

/** Writes lines at or above `level` to a sink (stderr by default). Used by the CLI. */
export function createStreamLogger(level: LogLevel = 'warn', sink: (line: string) => void = (l) => process.stderr.write(l + '\n')): Logger {
  const emit = (lvl: LogLevel, message: string | Error, args: unknown[]): void => {
    if (order[lvl] < order[level]) return;
    const text = message instanceof Error ? message.message : message;
    const extra = args.length ? ' ' + args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' ') : '';
    sink(`[${lvl}] ${text}${extra}`);
  };
  return {
    trace: (m, ...a) => emit('trace', m, a),
    debug: (m, ...a) => emit('debug', m, a),
    info: (m, ...a) => emit('info', m, a),
    warn: (m, ...a) => emit('warn', m, a),
    error: (m, ...a) => emit('error', m, a),
  };
}

/** Records every line; tests assert on `lines`. */
export interface RecordingLogger extends Logger {
  readonly lines: { level: LogLevel; message: string }[];
}

export function createRecordingLogger(): RecordingLogger {
  const lines: { level: LogLevel; message: string }[] = [];
  const rec = (level: LogLevel) => (m: string | Error) => { lines.push({ level, message: m instanceof Error ? m.message : m }); };
  return { lines, trace: rec('trace'), debug: rec('debug'), info: rec('info'), warn: rec('warn'), error: rec('error') };
}
