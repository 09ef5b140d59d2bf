/**
 * `agent-memory health [--since ISO] [--min N] [--agent A] [--json]`: per-entity health of the
 * learned ranker (win rate against the baseline, average margin, trend), plus the feedback stats.
 */
import { systemClock } from '../../core/clock';
import { resolveFeedbackConfig } from '../../core/config/feedbackConfig';
import { MemoryError } from '../../core/errors';
import { knowledgeStats } from '../../core/feedback/knowledgeStats';
import { getEntityHealth } from '../../core/predictor/entityHealth';
import { healthEmptyReason } from '../../core/predictor/healthEmptyReason';
import { intFlag, stringFlag } from '../args';
import type { ParsedArgs } from '../args';
import { withCliStore } from '../openCliStore';
import type { CliIo } from '../run';

export async function healthCommand(args: ParsedArgs, io: CliIo): Promise<number> {
  const agent = stringFlag(args, 'agent') ?? 'default';
  const since = stringFlag(args, 'since');
  if (since !== undefined && Number.isNaN(Date.parse(since))) throw new MemoryError('E_USAGE', '--since must be a date, e.g. 2026-03-01');
  const sinceIso = since === undefined ? undefined : new Date(Date.parse(since)).toISOString();
  const min = intFlag(args, 'min', 1, 10_000) ?? 3;
  const out = await withCliStore(args, async (store, settings) => store.read((db) => {
    const fb = resolveFeedbackConfig(settings.feedbackLoop.feedback);
    const entities = getEntityHealth(db, agent, sinceIso, min);
    return {
      entities,
      // An empty list says why, so a script (or a person reading the JSON) is not left guessing.
      ...(entities.length ? {} : { reason: healthEmptyReason(db, agent, sinceIso, min) }),
      feedback: knowledgeStats(db, { agentId: agent, nowMs: systemClock.now(), minWeight: fb.minAspectWeight, maxWeight: fb.maxAspectWeight }),
    };
  }));
  if (args.flags.json === true) { io.stdout(JSON.stringify(out) + '\n'); return 0; }
  const lines = out.entities.map((h) => `${h.entityName}: win rate ${(h.winRate * 100).toFixed(0)}% over ${h.comparisonCount}, margin ${h.avgMargin.toFixed(3)}, ${h.trend}`);
  const f = out.feedback;
  lines.push(`aspects: ${f.aspectCount}, avg weight ${f.avgAspectWeight.toFixed(3)}, at max ${f.aspectsAtMax}, at min ${f.aspectsAtMin}, updated by feedback (7 days) ${f.aspectsUpdatedByFeedback}`);
  io.stdout((out.reason ? `${out.reason}\n` : '') + lines.join('\n') + '\n');
  return 0;
}
