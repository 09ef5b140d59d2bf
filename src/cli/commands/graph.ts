import { MemoryError } from '../../core/errors';
import { entityGraph } from '../../core/graph/graphQueries';
import type { EntityGraph } from '../../core/graph/graphQueries';
import { withCliStore } from '../openCliStore';
import type { CliCommand } from '../run';

function format(g: EntityGraph): string {
  const lines = [`${g.entity.name} (${g.entity.type}, ${g.entity.mentions} mentions${g.entity.pinned ? ', pinned' : ''})`];
  if (g.entity.description) lines.push(`  ${g.entity.description}`);
  for (const a of g.aspects) {
    lines.push(`  ${a.name}:`);
    for (const x of a.attributes) lines.push(`    [${x.status}${x.kind === 'constraint' ? ', constraint' : ''}] ${x.content}${x.claimKey ? `  (${x.groupKey ?? '-'}/${x.claimKey})` : ''}`);
  }
  if (g.relations.length) lines.push('  relations:');
  for (const r of g.relations) lines.push(`    ${r.direction === 'out' ? '→' : '←'} ${r.type} ${r.other.name} (×${r.mentions}, confidence ${r.confidence.toFixed(2)})`);
  return lines.join('\n') + '\n';
}

/** `agent-memory graph NAME [--json]`: an entity's aspects, attributes (with status) and relations. */
export const graphCommand: CliCommand = async (args, io) => {
  const name = args.positionals.join(' ').trim();
  if (!name) throw new MemoryError('E_USAGE', 'graph needs an entity name, e.g. agent-memory graph PostgreSQL');
  const g = await withCliStore(args, async (store) => store.read((db) => entityGraph(db, name)));
  io.stdout(args.flags.json === true ? JSON.stringify(g) + '\n' : format(g));
  return 0;
};
