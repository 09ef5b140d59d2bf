import { DEFAULT_REDACTION_CONFIG } from '../../core/config/redactionConfig';
import { redactSecrets } from '../../core/memory/redaction';
import { resolveFetchConfig } from '../../core/config/ingestConfig';
import { MemoryError } from '../../core/errors';
import { ingestUrl } from '../../core/ingest/urlIngest';
import { stringFlag } from '../args';
import { settleCli } from '../cliSettle';
import { withCliEngine } from '../openCliStore';
import type { CliCommand } from '../run';
import type { PipelineCliOptions } from './ingest';

/**
 * `agent-memory fetch URL [--allow-private] [--project P] [--no-wait] [--json]`: fetches a
 * document (http/https, ≤ 10 MB, text/HTML/JSON/XML, private addresses refused unless
 * --allow-private) and remembers it, chunked; prints the memory id(s).
 */
export function makeFetchCommand(options: PipelineCliOptions = {}): CliCommand {
  return async (args, io) => {
    const url = args.positionals[0];
    if (!url || args.positionals.length > 1) throw new MemoryError('E_USAGE', 'fetch needs one URL, e.g. agent-memory fetch https://example.com/guide');
    const r = await withCliEngine(args, io, options, async (engine) => {
      const project = stringFlag(args, 'project');
      const out = await ingestUrl(engine.store, url, {
        remember: engine.rememberDeps(),
        fetch: resolveFetchConfig({ ...engine.currentSettings.fetch, allowPrivateAddresses: args.flags['allow-private'] === true || engine.currentSettings.fetch.allowPrivateAddresses }),
        fetchDeps: { allowPrivateHint: 'pass --allow-private, or --set fetch.allowPrivateAddresses=true, to allow it' },
        ...(project ? { project } : {}),
      });
      if (!out.duplicate && args.flags['no-wait'] !== true) await settleCli(engine, io);
      return out;
    });
    if (args.flags.json === true) io.stdout(JSON.stringify({ id: r.id, chunkIds: r.chunkIds, duplicate: r.duplicate, url: redactSecrets(r.url, DEFAULT_REDACTION_CONFIG).text, title: r.title ?? null, bytes: r.byteLength }) + '\n');
    else {
      if (r.duplicate) io.stderr(`agent-memory: ${redactSecrets(r.url, DEFAULT_REDACTION_CONFIG).text} is already remembered\n`);
      io.stdout(`${r.chunkIds.join('\n')}\n`);
    }
    return 0;
  };
}

export const fetchCommand: CliCommand = makeFetchCommand();
