import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from '../../../src/cli/args';
import { cliEngineConfig, cliWorkspaceNames } from '../../../src/cli/openCliStore';
import { DEFAULT_EXTRACTION_CONFIG, resolveExtractionConfig } from '../../../src/core/config/extractionConfig';
import { heuristicExtract } from '../../../src/core/extraction/heuristicExtractor';
import { DEFAULT_MENTION_VOCABULARY, mentionVocabularyFor } from '../../../src/core/extraction/entityMentions';
import { namesFromCargoToml, namesFromGoMod, namesFromPackageJson, namesFromPyproject, namesFromRequirements, readWorkspaceNames } from '../../../src/core/extraction/workspaceNames';

describe('workspace gazetteer (workspaceNames.ts)', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'am-ws-'));
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ dependencies: { zod: '^3', fastify: '^4' }, devDependencies: { express: '^4' } }));
    mkdirSync(join(dir, 'services', 'billing'), { recursive: true });
    writeFileSync(join(dir, 'services', 'billing', 'pyproject.toml'), '[project]\nname = "billing"\ndependencies = [\n  "httpx>=0.27",\n  "pydantic[email]",\n]\n[tool.poetry.dependencies]\npython = "^3.12"\nstructlog = "*"\n');
    writeFileSync(join(dir, 'services', 'billing', 'invoiceMailer.ts'), '');
    mkdirSync(join(dir, 'node_modules', 'leftpad'), { recursive: true });
    writeFileSync(join(dir, 'node_modules', 'leftpad', 'package.json'), JSON.stringify({ dependencies: { never: '1' } }));
  });
  after(() => { rmSync(dir, { recursive: true, force: true }); });

  it('reads dependency names from each manifest format, and nothing from a broken one', () => {
    assert.deepEqual(namesFromPackageJson('{"dependencies":{"zod":"1"},"devDependencies":{"@types/node":"1"}}'), ['zod', '@types/node']);
    assert.deepEqual(namesFromPackageJson('{not json'), []);
    assert.deepEqual(namesFromPyproject('[project]\ndependencies = ["httpx>=0.27", "rich"]\n[tool.poetry.dependencies]\npython = "^3"\nclick = "^8"\n'), ['httpx', 'rich', 'click']);
    assert.deepEqual(namesFromRequirements('# pinned\nrequests==2.31\n-r dev.txt\nuvicorn[standard]>=0.30\n'), ['requests', 'uvicorn']);
    assert.deepEqual(namesFromGoMod('module x\n\nrequire (\n\tgithub.com/spf13/cobra v1.8.0\n\tgolang.org/x/sync v0.7.0 // indirect\n)\nrequire github.com/jackc/pgx/v5 v5.5.0\n'),
      ['github.com/spf13/cobra', 'cobra', 'golang.org/x/sync', 'sync', 'github.com/jackc/pgx/v5', 'pgx']);
    assert.deepEqual(namesFromCargoToml('[package]\nname = "x"\n[dependencies]\nserde = "1"\ntokio = { version = "1" }\n[dev-dependencies]\ninsta = "1"\n[dependencies.reqwest]\nversion = "0.12"\n'), ['serde', 'tokio', 'insta', 'reqwest']);
  });

  it('walks a folder: manifests of sub-folders, distinctive file and folder names, never node_modules', () => {
    const w = readWorkspaceNames(dir);
    assert.deepEqual(w.dependencies, ['express', 'fastify', 'httpx', 'pydantic', 'structlog', 'zod']);
    assert.ok(w.names.includes('invoiceMailer') && w.names.includes('billing') && w.names.includes('services'));
    assert.ok(!w.names.includes('leftpad') && !w.dependencies.includes('never'), 'node_modules is not walked');
    assert.deepEqual(readWorkspaceNames(join(dir, 'missing')), { dependencies: [], names: [] });
  });

  it('extraction names the workspace\'s dependencies; an English word only capitalised; no workspace, no change', () => {
    const text = 'We validate request bodies with zod before the handler runs, and structlog writes the audit trail. We express the limits in one place; Express is gone.';
    const names = (cfg = DEFAULT_EXTRACTION_CONFIG) => heuristicExtract(text, cfg, mentionVocabularyFor(cfg.workspace)).entities?.map((e) => `${e.name}:${e.type}`) ?? [];
    const without = names();
    assert.ok(!without.some((n) => n.startsWith('zod') || n.startsWith('structlog')), without.join(' '));
    const cfg = resolveExtractionConfig({ workspace: readWorkspaceNames(dir) });
    const withWs = names(cfg);
    assert.ok(withWs.includes('zod:package') && withWs.includes('structlog:package'), withWs.join(' '));
    assert.ok(!withWs.some((n) => n === 'express:package'), `lowercase "express" is the verb: ${withWs.join(' ')}`);
    assert.ok(withWs.some((n) => n.startsWith('Express')), withWs.join(' '));
    assert.equal(mentionVocabularyFor(DEFAULT_EXTRACTION_CONFIG.workspace), DEFAULT_MENTION_VOCABULARY);
  });

  it('CLI --workspace DIR feeds the extraction config; a missing folder is a clear usage error', () => {
    const store = join(dir, 'store');
    const s = cliEngineConfig(parseArgs(['--store', store, '--workspace', dir, 'extract', 'x']));
    assert.ok(s.extraction.workspace.dependencies.includes('zod'));
    assert.deepEqual(cliEngineConfig(parseArgs(['--store', store, 'extract', 'x'])).extraction.workspace, { dependencies: [], names: [] });
    assert.throws(() => cliWorkspaceNames(parseArgs(['--workspace', join(dir, 'nope'), 'extract', 'x'])), /--workspace: no folder at/);
  });
});
