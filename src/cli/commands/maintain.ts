/**
 * `agent-memory maintain [TASK...] [--json]`: run maintenance tasks (all when none are
 * named) and print one report. Refuses while another window or process holds the maintenance lease.
 */
import type { ParsedArgs } from '../args';
import { noCliLlm, withCliEngine } from '../openCliStore';
import type { CliIo } from '../run';

export async function maintainCommand(args: ParsedArgs, io: CliIo): Promise<number> {
  const report = await withCliEngine(args, io, { llm: noCliLlm }, (engine) => engine.maintenance.run(args.positionals));
  if (args.flags.json === true) { io.stdout(JSON.stringify(report) + '\n'); return report.tasks.some((t) => t.status === 'failed') ? 1 : 0; }
  for (const t of report.tasks) {
    const summary = Object.entries(t.summary).map(([k, v]) => `${k}=${v}`).join(', ');
    io.stdout(`${t.task}: ${t.status}${t.resumed ? ' (resumed)' : ''}; processed ${t.processed}${summary ? `; ${summary}` : ''}${t.error ? `; error: ${t.error}` : ''}\n`);
  }
  return report.tasks.some((t) => t.status === 'failed') ? 1 : 0;
}
