/**
 * Item 6: "used" evidence for hook sessions. A memory injected by a hook counts as used when its
 * distinctive content appears in the agent's later output or tool inputs; unused injections count
 * against. The evidence survives the session end (the transcript-overlap proxy no longer
 * overwrites it for hook sessions) and is what the feedback loop reads as paid off.
 */
import { strict as assert } from 'node:assert';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ManualClock } from '../../../src/core/clock';
import { parseHookEvent } from '../../../src/core/hooks/hookEvent';
import { runHookEvent } from '../../../src/core/hooks/hookHandlers';
import { distinctiveTokens, usageVerdicts } from '../../../src/core/hooks/hookUsage';
import { openMemoryStore } from '../../../src/core/store/memoryStore';
import type { MemoryStore } from '../../../src/core/store/storeTypes';
import { engineOnStore } from '../helpers/testEngine';
import { makeTempDir } from '../helpers/tempDir';

const line = (o: unknown): string => JSON.stringify(o) + '\n';

describe('agents: used evidence from hook transcripts', () => {
  it('finds identifiers, values and names, and ignores common words', () => {
    assert.deepEqual([...distinctiveTokens('We decided to use Drizzle ORM with drizzle-kit 0.31 for billing.')].sort(), ['0.31', 'drizzle', 'drizzle-kit', 'orm']);
    const [used, unused, silent] = usageVerdicts([
      { id: 'a', content: 'Use drizzle-kit 0.31 for migrations.' },
      { id: 'b', content: 'Deploy with Fly.io in region fra.' },
      { id: 'c', content: 'keep it simple' },
    ], 'Running `npx drizzle-kit generate` (0.31)…');
    assert.deepEqual([used?.used, unused?.used, silent], [true, false, undefined], 'a memory without distinctive content gives no evidence');
  });

  describe('through the hooks', () => {
    let clock: ManualClock;
    let store: MemoryStore;
    let temp: { dir: string; cleanup: () => void };
    beforeEach(async () => { clock = new ManualClock(Date.parse('2026-12-02T10:00:00Z')); store = await openMemoryStore({ clock }); temp = makeTempDir(); });
    afterEach(async () => { await store.close(); temp.cleanup(); });

    async function session(used: boolean): Promise<{ fts: number; relevance: number | null; score: { method: string; memories_used: number } | undefined }> {
      const engine = engineOnStore(store, clock);
      await engine.remember({ content: 'The billing service uses drizzle-kit 0.31 for schema migrations.' });
      const sid = used ? 'used-1' : 'unused-1';
      const transcript = join(temp.dir, `${sid}.jsonl`);
      const ev = (o: Record<string, unknown>): ReturnType<typeof parseHookEvent> => parseHookEvent(JSON.stringify({ session_id: sid, transcript_path: transcript, cwd: '/w/shop', ...o }), { harness: 'claude-code' });
      const inj = await runHookEvent(engine, ev({ hook_event_name: 'UserPromptSubmit', prompt: 'How do billing schema migrations work here?' }));
      assert.equal(inj.injectedIds?.length, 1);
      const later = used ? { type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'npx drizzle-kit@0.31 generate' } } : { type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'ls migrations' } };
      writeFileSync(transcript, line({ type: 'user', message: { role: 'user', content: 'How do billing schema migrations work here?' }, uuid: 'u1', sessionId: sid })
        + line({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: 'Let me look.' }, later] }, uuid: 'a1', sessionId: sid }));
      await runHookEvent(engine, ev({ hook_event_name: 'Stop' }));
      await runHookEvent(engine, ev({ hook_event_name: 'SessionEnd', reason: 'exit' }));
      const row = store.read((db) => db.get<{ fts: number; relevance: number | null }>(`SELECT fts_hit_count AS fts, relevance_score AS relevance FROM session_memories WHERE session_key = ? AND was_injected = 1`, [`agent:${sid}`]));
      const score = store.read((db) => db.get<{ method: string; memories_used: number }>('SELECT method, memories_used FROM session_scores WHERE session_key = ?', [`agent:${sid}`]));
      const status = store.read((db) => db.get<{ status: string }>('SELECT status FROM sessions WHERE session_key = ?', [`agent:${sid}`]))?.status;
      assert.equal(status, 'ended', 'SessionEnd ends the session so the feedback loop runs');
      await engine.close();
      return { fts: row?.fts ?? -1, relevance: row?.relevance ?? null, score };
    }

    it('an injected memory whose values the agent typed into a tool counts as used (paid off)', async () => {
      const r = await session(true);
      assert.ok(r.fts > 0);
      assert.equal(r.relevance, 1, 'kept through the session end (the overlap proxy does not overwrite it)');
      assert.deepEqual(r.score, { method: 'usage', memories_used: 1 });
    });

    it('an injected memory the agent never used counts against it', async () => {
      const r = await session(false);
      assert.equal(r.fts, 0);
      assert.equal(r.relevance, 0);
      assert.deepEqual(r.score, { method: 'usage', memories_used: 0 });
    });
  });
});
