import { strict as assert } from 'node:assert';
import { analyseMemory, detectMemorySupersession, findMemorySupersessions, replacedPhrases, settingValues, statesAny, statesPhrase } from '../../../src/core/extraction/memorySupersession';
import type { MemoryText } from '../../../src/core/extraction/memorySupersession';

const mem = (id: string, type: string, content: string, createdAt: string): MemoryText => ({ id, type, content, createdAt });
const detect = (a: MemoryText, b: MemoryText) => detectMemorySupersession(analyseMemory(a), analyseMemory(b));

describe('memory supersession heuristics', () => {
  describe('settingValues', () => {
    it('reads setting nouns, identifiers and host:port pairs with their values', () => {
      const v = (t: string) => Object.fromEntries([...settingValues(t)].map(([k, s]) => [k, [...s]]));
      assert.deepEqual(v('The API listens on port 3000.'), { port: ['3000'] });
      assert.deepEqual(v('Staging now runs on localhost:8443 behind nginx.'), { port: ['8443'] });
      assert.deepEqual(v('MAX_RETRIES in worker/config.ts is the retry budget; it is set to 5.'), { max_retries: ['5'] });
      assert.deepEqual(v('cache.ttl = 300s for the session cache'), { 'cache.ttl': ['300s'], ttl: ['300s'] });
      assert.deepEqual(v('The request timeout is 30 s.'), { timeout: ['30s'] });
      assert.deepEqual(v('Bumped the version in package.json to 2.1.0.'), {}, 'a file name is not a setting key');
      assert.deepEqual(v('We run 2 workers.'), {}, 'a number before the noun is not read');
    });
  });

  it('finds what a change statement replaces', () => {
    assert.deepEqual(replacedPhrases('Decision: move the cache from Memcached to Redis because of eviction.'), ['the cache from Memcached'.replace('the cache from ', '')]);
    assert.deepEqual(replacedPhrases('We replaced Jest with Vitest.'), ['Jest']);
    assert.deepEqual(replacedPhrases('Use pnpm instead of npm for installs.'), ['npm for installs']);
    assert.deepEqual(replacedPhrases('We chose Postgres over MySQL.'), [], 'a choice between alternatives is not a change over time');
    assert.deepEqual(replacedPhrases('We switched from npm to pnpm.'), ['npm']);
    assert.deepEqual(replacedPhrases('The parser was ported from Python to Rust.'), ['Python']);
    assert.deepEqual(replacedPhrases('The API went from REST to GraphQL last year.'), ['REST']);
  });

  it('reads only change verbs before "from … to" (not "got", "good" or "important")', () => {
    assert.deepEqual(replacedPhrases('Thanks, John! I got the idea from that trip to England a few years ago.'), []);
    assert.deepEqual(replacedPhrases('Good news from the team to everyone: the build is green.'), []);
    assert.deepEqual(replacedPhrases('It is important from day one to pin versions.'), []);
  });

  describe('decision change', () => {
    const older = mem('a', 'decision', 'Sessions are kept in a Memcached cluster; no persistence needed.', '2026-01-01T00:00:00Z');
    const newer = mem('b', 'decision', 'Decision: move the sessions from Memcached to Redis so they survive restarts.', '2026-02-01T00:00:00Z');

    it('supersedes the older decision about the same subject when the newer names what it replaces', () => {
      const f = detect(older, newer);
      assert.equal(f?.kind, 'decision_change');
      assert.equal(f?.olderId, 'a');
      assert.equal(f?.newerId, 'b');
      assert.match(f?.detail ?? '', /memcached/);
      assert.deepEqual(detect(newer, older), f, 'argument order does not matter; time order does');
    });

    it('needs time order, a shared subject, state types and change language', () => {
      assert.equal(detect(older, { ...newer, createdAt: older.createdAt }), undefined, 'same time: no order');
      assert.equal(detect({ ...older, createdAt: '2026-03-01T00:00:00Z' }, newer), undefined, 'the change statement must be the newer memory');
      assert.equal(detect(mem('c', 'decision', 'The billing service runs on Kubernetes.', '2026-01-01T00:00:00Z'), newer), undefined, 'different subject');
      assert.equal(detect(older, { ...newer, type: 'summary' }), undefined, 'summaries report, they do not decide');
      assert.equal(detect(older, mem('d', 'decision', 'Sessions stay in the Memcached cluster; we add a second node.', '2026-02-01T00:00:00Z')), undefined, 'no change language');
    });
  });

  describe('what the older memory says', () => {
    const at = (d: number): string => `2026-0${d}-01T00:00:00Z`;

    it('replaces nothing the older memory only denies', () => {
      assert.equal(detect(mem('a', 'fact', 'We do not use Redis for the sessions of the web app.', at(1)),
        mem('b', 'fact', 'The web app keeps its sessions in Memcached instead of Redis.', at(2))), undefined);
      assert.equal(detect(mem('a', 'fact', "Tim: exams this week are overwhelming, but I'm not giving up on my reading.", at(1)),
        mem('b', 'fact', 'Tim: a tough exam this week, but instead of giving up I kept reading.', at(2))), undefined);
      assert.equal(statesAny("I'm not giving up", ['giving']), false);
      assert.equal(statesAny("We don't really use Redis; Redis is for the cache only", ['redis']), true, 'one stated mention is enough');
    });

    it('needs the whole action an -ing phrase names, not the same verb in another sense', () => {
      assert.equal(detect(mem('a', 'fact', 'John: giving it my all every time I am on the court this season.', at(1)),
        mem('b', 'fact', 'John: a hard season on the court, but instead of giving up I trained more.', at(2))), undefined);
      const f = detect(mem('a', 'fact', 'The build worker is polling the artifact API every minute.', at(1)),
        mem('b', 'fact', 'The build worker now gets webhooks from the artifact API instead of polling.', at(2)));
      assert.equal(f?.kind, 'decision_change', 'an action the older memory states is still replaced');
      assert.equal(statesPhrase('We were giving up on the old parser', 'giving up'), true);
      assert.equal(statesPhrase('Giving it my all', 'giving up'), false);
    });
  });

  describe('value change', () => {
    it('supersedes an older value of the same setting', () => {
      const f = detect(mem('a', 'fact', 'The admin API listens on port 9000.', '2026-01-01T00:00:00Z'),
        mem('b', 'fact', 'Port 9000 was taken by the profiler, so the admin API now listens on 127.0.0.1:9100.', '2026-02-01T00:00:00Z'));
      assert.equal(f?.kind, 'value_change');
      assert.equal(f?.detail, 'port changed: 9000 → 9100');
    });

    it('ignores equal values, unrelated subjects and a newer text that keeps the old value without change language', () => {
      const a = mem('a', 'fact', 'The admin API listens on port 9000.', '2026-01-01T00:00:00Z');
      assert.equal(detect(a, mem('b', 'fact', 'Restarted the admin API on port 9000.', '2026-02-01T00:00:00Z')), undefined);
      assert.equal(detect(a, mem('c', 'fact', 'Grafana listens on port 3000.', '2026-02-01T00:00:00Z')), undefined);
      assert.equal(detect(a, mem('d', 'fact', 'The admin API answers on port 9000 and the debug API on port 9001.', '2026-02-01T00:00:00Z')), undefined);
      assert.equal(detect(a, mem('e', 'event', 'The admin API was restarted on port 9100.', '2026-02-01T00:00:00Z')), undefined, 'events do not carry settings');
    });
  });

  it('scans a set of memories, ordered by the newer memory', () => {
    const found = findMemorySupersessions([
      mem('m1', 'fact', 'RETRY_LIMIT in jobs/queue.ts caps the retries of a job; it is set to 3.', '2026-01-01T00:00:00Z'),
      mem('m2', 'fact', 'The job retry cap was raised: RETRY_LIMIT is 5 now, flaky uploads needed more tries.', '2026-03-01T00:00:00Z'),
      mem('m3', 'decision', 'Logs go to a local file, logs/app.log, rotated daily.', '2026-01-02T00:00:00Z'),
      mem('m4', 'decision', 'Switch the logs from the local file to journald.', '2026-02-01T00:00:00Z'),
      mem('m5', 'preference', 'The user likes short commit messages.', '2026-02-02T00:00:00Z'),
    ]);
    assert.deepEqual(found.map((f) => [f.olderId, f.newerId, f.kind]), [['m3', 'm4', 'decision_change'], ['m1', 'm2', 'value_change']]);
  });
});
