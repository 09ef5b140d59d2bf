import type { FeedbackLoopSettings } from './feedbackLoop';

/**
 * Maps the `agentMemory.feedback.*`, `sessions.*`, `hints.*` and `maintenance.*` VS Code settings
 * (package.json) onto FeedbackLoopSettings, converting units. `get` returns a setting's value
 * (undefined when unset); the resolve*Config functions clamp whatever comes in.
 */
export const FEEDBACK_LOOP_SETTING_KEYS = [
  'feedback.enabled', 'feedback.ftsWeightDelta', 'feedback.minAspectWeight', 'feedback.maxAspectWeight', 'feedback.decayEnabled',
  'feedback.decayRate', 'feedback.staleDays', 'feedback.decayIntervalSessions', 'feedback.predictorEnabled', 'feedback.predictorMinSessions',
  'sessions.idleTimeoutMinutes', 'sessions.maxInjectTokens',
  'hints.enabled', 'hints.max', 'hints.timeoutSeconds',
  'maintenance.scheduleEnabled', 'maintenance.intervalHours',
] as const;

type Getter = (key: (typeof FEEDBACK_LOOP_SETTING_KEYS)[number]) => unknown;

const MINUTE = 60_000;
const SECOND = 1_000;
const HOUR = 3_600_000;

function pick<T extends object>(entries: readonly [keyof T, unknown][]): Partial<T> {
  const out: Partial<T> = {};
  for (const [k, v] of entries) if (v !== undefined && v !== null) (out as Record<keyof T, unknown>)[k] = v;
  return out;
}

const scaled = (v: unknown, factor: number): unknown => (typeof v === 'number' ? v * factor : undefined);

export function feedbackLoopSettingsFrom(get: Getter, graphEnabled = true): FeedbackLoopSettings {
  return {
    graphEnabled,
    feedback: pick([
      ['enabled', get('feedback.enabled')], ['ftsWeightDelta', get('feedback.ftsWeightDelta')], ['minAspectWeight', get('feedback.minAspectWeight')],
      ['maxAspectWeight', get('feedback.maxAspectWeight')], ['decayEnabled', get('feedback.decayEnabled')], ['decayRate', get('feedback.decayRate')],
      ['staleDays', get('feedback.staleDays')], ['decayIntervalSessions', get('feedback.decayIntervalSessions')],
      ['predictorEnabled', get('feedback.predictorEnabled')], ['predictorMinSessions', get('feedback.predictorMinSessions')],
    ]),
    session: pick([['idleTimeoutMs', scaled(get('sessions.idleTimeoutMinutes'), MINUTE)], ['maxInjectTokens', get('sessions.maxInjectTokens')]]),
    hints: pick([['enabled', get('hints.enabled')], ['max', get('hints.max')], ['timeoutMs', scaled(get('hints.timeoutSeconds'), SECOND)]]),
    maintenance: pick([['scheduleEnabled', get('maintenance.scheduleEnabled')], ['intervalMs', scaled(get('maintenance.intervalHours'), HOUR)]]),
  };
}
