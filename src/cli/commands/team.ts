/**
 * `agent-memory team init|connect|status|sync|share|unshare|disconnect` (docs/team.md).
 * The password is never an argument: it comes from the CLI's secret store (PGPASSWORD,
 * src/cli/envSecrets.ts), else `pg` reads the pgpass file, like psql.
 *   team init URL                 apply the server schema (an administrator's role)
 *   team connect URL              check the login and save the connection in this store
 *   team status [--json]          connection, waiting outbox entries, shared projects
 *   team sync [--full] [--json]   push the outbox, then pull everything new (--full: scan every shared
 *                                 memory for the push, not only those changed since the last one)
 *   team share --project P | ID   share a project (its memories follow) or one memory again
 *   team unshare --project P | ID stop sharing a project (nothing more travels) or one memory (tombstone)
 *   team disconnect               forget the connection; memories, replicas and the outbox stay
 *   team search QUERY [--project P] [--limit K] [--only lexical] [--json]
 *                                 hybrid search on the server (tsvector + pgvector) over the shared
 *                                 projects, for teams past one local replica
 */
import { systemClock } from '../../core/clock';
import { DEFAULT_EMBEDDING_MODEL } from '../../core/config/modelConfig';
import { DEFAULT_JOBS_CONFIG } from '../../core/config/jobsConfig';
import { DEFAULT_SEARCH_CONFIG } from '../../core/config/searchConfig';
import { DEFAULT_REDACTION_CONFIG } from '../../core/config/redactionConfig';
import { resolveTeamConfig } from '../../core/config/teamConfig';
import { MemoryError } from '../../core/errors';
import { createStreamLogger } from '../../core/logger';
import type { MemorySettings } from '../../core/config/memorySettings';
import type { MemoryStore } from '../../core/store/storeTypes';
import { connectStore, disconnectStore, shareMemoryWithTeam, shareProject, stopSharingMemory } from '../../core/team/teamAdmin';
import { initTeamServer } from '../../core/team/teamConnection';
import { TeamSync } from '../../core/team/teamSync';
import { teamPasswordFrom } from '../../core/team/teamSecret';
import { readTeamState } from '../../core/team/teamState';
import type { TeamStatus } from '../../core/team/teamSync';
import { searchWithStore } from '../../core/team/teamSearch';
import type { ServerSearchResult } from '../../core/team/serverSearch';
import { intFlag, stringFlag } from '../args';
import type { ParsedArgs } from '../args';
import { envSecretStore } from '../envSecrets';
import { noCliLlm, withCliEngine, withCliStore } from '../openCliStore';
import type { CliIo } from '../run';

const USAGE = 'team needs a subcommand: init URL | connect URL | status | sync | share (--project P | ID) | unshare (--project P | ID) | disconnect | search QUERY';

function cliSync(store: MemoryStore, settings: MemorySettings, args: ParsedArgs, io: CliIo): TeamSync {
  const logger = createStreamLogger(args.flags.verbose === true ? 'debug' : 'warn', (l) => io.stderr(l + '\n'));
  return new TeamSync({
    store, clock: systemClock, logger, config: resolveTeamConfig(settings.team), redaction: DEFAULT_REDACTION_CONFIG, jobs: DEFAULT_JOBS_CONFIG,
    embeddingModelId: stringFlag(args, 'model') ?? DEFAULT_EMBEDDING_MODEL,
    password: async () => {
      const { connectionString } = store.read((db) => readTeamState(db));
      return connectionString ? teamPasswordFrom(envSecretStore(), connectionString)() : undefined;
    },
  });
}

function statusText(s: TeamStatus): string {
  const lines = [
    s.server ? `team: ${s.state} (${s.server})` : 'team: not connected',
    `waiting to push: ${s.waiting}`,
    `shared projects: ${s.sharedProjects.length ? s.sharedProjects.join(', ') : '(none)'}`,
    `pulled up to server sequence ${s.cursor}`,
    s.replica === 'partial'
      ? 'replica: partial (your memories and the team memories you recalled; recall also asks the team server)'
      : 'replica: full (every shared memory of the shared projects; recall answers locally)',
  ];
  if (s.reason && s.state !== 'connected') lines.push(`reason: ${s.reason}`);
  return lines.join('\n') + '\n';
}

function searchText(r: ServerSearchResult): string {
  const lines: string[] = [];
  if (r.hits.length === 0) lines.push('No shared memory on the team server matched.');
  r.hits.forEach((h, i) => {
    const text = h.content.replace(/\s+/g, ' ');
    lines.push(`${i + 1}. [${h.score.toFixed(3)}] ${text.length > 200 ? text.slice(0, 199) + '…' : text}`);
    lines.push(`   ${h.project} · team · ${h.mine ? 'shared by you' : h.author}, ${h.type}, ${h.createdAt}, id ${h.id}; found by ${h.sources.join(', ')}`);
  });
  for (const n of r.notes) lines.push(`note: ${n}`);
  return lines.join('\n') + '\n';
}

function oneUrl(args: ParsedArgs, sub: string): string {
  const url = args.positionals[1];
  if (!url || args.positionals.length > 2) throw new MemoryError('E_USAGE', `team ${sub} needs one connection string, e.g. agent-memory team ${sub} postgresql://alice@db.example.com:5432/team (password in PGPASSWORD or ~/.pgpass)`);
  return url;
}

function target(args: ParsedArgs, sub: string): { project: string } | { id: string } {
  const project = stringFlag(args, 'project');
  const id = args.positionals[1];
  if ((project === undefined) === (id === undefined) || args.positionals.length > 2) throw new MemoryError('E_USAGE', `team ${sub} needs --project NAME or one memory id.`);
  return project !== undefined ? { project } : { id: id as string };
}

export async function teamCommand(args: ParsedArgs, io: CliIo): Promise<number> {
  const sub = args.positionals[0];
  const json = args.flags.json === true;
  const out = (obj: object, text: string): void => io.stdout(json ? JSON.stringify(obj) + '\n' : text);
  switch (sub) {
    case 'init': {
      const r = await initTeamServer({ connectionString: oneUrl(args, 'init') });
      const skipped = r.skipped.map((m) => `Skipped server migration ${m.version}: ${m.reason}. Server-side search stays lexical only until it is applied; sync is not affected.\n`).join('');
      out(r, (r.applied.length ? `Applied server migration(s) ${r.applied.join(', ')}; schema version ${r.version}.\n` : `The server schema is up to date (version ${r.version}).\n`) + skipped);
      return 0;
    }
    case 'connect': {
      const url = oneUrl(args, 'connect');
      const r = await withCliStore(args, async (store) => connectStore(store, url, await teamPasswordFrom(envSecretStore(), url)()));
      out(r, `Connected to ${r.server}. Share a project with: agent-memory team share --project NAME\n`);
      return 0;
    }
    case 'disconnect': {
      await withCliStore(args, (store) => disconnectStore(store));
      out({ disconnected: true }, 'Disconnected; memories and replicas stay in this store.\n');
      return 0;
    }
    case 'status': {
      const s = await withCliStore(args, async (store, settings) => {
        const sync = cliSync(store, settings, args, io);
        try { return store.read((db) => readTeamState(db).connectionString !== undefined) ? await sync.probe() : sync.status(); } finally { await sync.stop(); }
      });
      out(s, statusText(s));
      return 0;
    }
    case 'sync': {
      const r = await withCliStore(args, async (store, settings) => {
        const sync = cliSync(store, settings, args, io);
        try { return await sync.syncOnce({ full: args.flags.full === true }); } finally { await sync.stop(); }
      });
      out(r, `Pushed ${r.push.sent} (${r.push.changedOnServer} changed on the server${r.push.refused ? `, ${r.push.refused} refused` : ''}); pulled ${r.pull.inserted} new, ${r.pull.updated} updated, ${r.pull.forgotten} forgotten${r.pull.notHeld ? ` (partial replica: ${r.pull.notHeld} teammates' memories not copied; recall asks the server for them)` : ''}.\n`);
      return 0;
    }
    case 'share':
    case 'unshare': {
      const t = target(args, sub);
      const shared = sub === 'share';
      if ('project' in t) {
        const list = await withCliStore(args, (store) => shareProject(store, t.project, shared));
        out({ sharedProjects: list }, `${shared ? 'Sharing' : 'Stopped sharing'} project ${t.project}. Shared projects: ${list.length ? list.join(', ') : '(none)'}\n`);
      } else {
        await withCliStore(args, (store) => (shared ? shareMemoryWithTeam(store, t.id, systemClock) : stopSharingMemory(store, t.id, systemClock)));
        out({ id: t.id, shared }, shared ? `Memory ${t.id} will be shared at the next sync.\n` : `Memory ${t.id} stops being shared at the next sync (teammates' copies are removed).\n`);
      }
      return 0;
    }
    case 'search': {
      const query = args.positionals.slice(1).join(' ').trim();
      if (query === '') throw new MemoryError('E_USAGE', 'team search needs a query, e.g. agent-memory team search "which database do we use"');
      const only = stringFlag(args, 'only');
      if (only !== undefined && only !== 'lexical') throw new MemoryError('E_USAGE', "team search --only takes 'lexical' (the vector arm runs when the server has pgvector and a model is available).");
      const limit = intFlag(args, 'limit', 1, 100);
      const project = stringFlag(args, 'project');
      // The engine supplies the search settings and the embedding model for the query vector; a
      // lexical-only search loads no model.
      const r = await withCliEngine(args, io, { llm: noCliLlm, settings: { 'models.intraOpThreads': 1 }, ...(only === 'lexical' ? { embedder: () => undefined } : {}) }, (engine) =>
        searchWithStore(engine.store, { query, ...(project !== undefined ? { project } : {}), ...(limit !== undefined ? { limit } : {}) }, {
          config: engine.recallDeps().config ?? DEFAULT_SEARCH_CONFIG, ...(engine.embedder ? { embedder: engine.embedder } : {}),
        }));
      out(r, searchText(r));
      return 0;
    }
    default:
      throw new MemoryError('E_USAGE', USAGE);
  }
}
