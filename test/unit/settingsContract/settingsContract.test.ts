import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { coveredSettings } from './contractRegistry';
import './searchContract';
import './cliContract';
import './loopContract';
import './workerContract';
import './hintsContract';
import './graphContract';
import './rerankAndFocusContract';
import './queryAdapterContract';
import './modelContract';
import './llmContract';
import './extensionContract';
import './teamContract';
import './agentsContract';
import './chatHistoryContract';
import './mcpContract';

/**
 * Settings known to do nothing yet (none today): listed so the suite stays green while a fix is in
 * progress. Remove an entry when its behaviour test lands; an entry that gains a test fails below.
 */
const KNOWN_GAPS: readonly string[] = [];

/**
 * Settings without a behaviour test yet: they are read into the typed configuration (the settings
 * table test proves where each lands) but nothing here shows that changing them changes behaviour.
 * This list must only shrink.
 */
const NOT_YET_COVERED: readonly string[] = [];

type Group = { properties: Record<string, unknown> };
const pkg = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as { contributes: { configuration: Group[] } };
const contributed = pkg.contributes.configuration.flatMap((g) => Object.keys(g.properties)).map((k) => k.replace(/^agentMemory\./, ''));

describe('settings contract coverage', () => {
  it('has a behaviour test for every contributed setting', () => {
    const excused = new Set([...KNOWN_GAPS, ...NOT_YET_COVERED]);
    const missing = contributed.filter((k) => !coveredSettings().has(k) && !excused.has(k));
    assert.deepEqual(missing, [], 'contributed settings with no test proving they change behaviour');
  });

  it('lists as gaps only contributed settings that still lack a test', () => {
    for (const k of [...KNOWN_GAPS, ...NOT_YET_COVERED]) {
      assert.ok(contributed.includes(k), `${k} is not contributed any more`);
      assert.ok(!coveredSettings().has(k), `${k} has a behaviour test now: remove it from the gap lists`);
    }
  });
});
