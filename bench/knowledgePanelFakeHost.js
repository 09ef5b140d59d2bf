// Injected into the page by bench/knowledgePanel.mjs before the panel script: a stub
// acquireVsCodeApi and a fake host that answers the panel's messages from N synthetic entities
// (window.__benchConfig = { entities, pageAll, theme }). Plain browser JS, no imports.
/* eslint-disable */
(() => {
  const cfg = window.__benchConfig;
  const types = ['project', 'person', 'system', 'tool', 'concept', 'skill', 'task'];
  const trends = ['improving', 'stable', 'declining'];
  const words = ['auth', 'billing', 'cache', 'deploy', 'editor', 'fts', 'graph', 'indexer', 'jobs', 'kafka', 'lint', 'migrations', 'notebook', 'onnx', 'parser', 'queue', 'recall', 'sqlite', 'telemetry', 'webview'];
  let seed = 42;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  const entities = [];
  for (let i = 0; i < cfg.entities; i++) {
    const w1 = words[i % words.length], w2 = words[Math.floor(i / words.length) % words.length];
    const hasHealth = rnd() < 0.6;
    const winRate = Math.round(rnd() * 100) / 100;
    entities.push({
      id: 'e' + i, name: i < 6 ? ['Agent Memory', 'Ada Lovelace', 'SQLite store', 'esbuild', 'Recall pipeline', 'VS Code'][i] : `${w1}-${w2} ${i}`,
      type: types[i % types.length], pinned: i % 997 === 1 || i === 0, pinnedAt: i % 997 === 1 || i === 0 ? '2026-11-29T10:00:00.000Z' : null,
      mentions: Math.floor(rnd() * 200), aspects: Math.floor(rnd() * 8), attributes: Math.floor(rnd() * 40), constraints: Math.floor(rnd() * 3),
      relations: Math.floor(rnd() * 12),
      health: hasHealth ? { comparisonCount: 3 + Math.floor(rnd() * 30), winRate, avgMargin: Math.round((rnd() - 0.5) * 40) / 100, trend: trends[Math.floor(rnd() * 3)] } : null,
    });
  }
  entities.sort((a, b) => (b.pinned - a.pinned) || (b.mentions - a.mentions) || a.name.localeCompare(b.name));
  const byId = new Map(entities.map((e) => [e.id, e]));
  let filtered = entities;
  let query = '', entityType = null;
  // dispatchEvent runs the panel's listener synchronously, so this times decode + apply + render.
  window.__pageTimes = [];
  const send = (data) => {
    const started = performance.now();
    window.dispatchEvent(new MessageEvent('message', { data }));
    if (data.type === 'page') window.__pageTimes.push({ rows: data.entities.length, ms: performance.now() - started });
  };
  const page = (requestId, offset, limit, reset) => send({ type: 'page', requestId, query, entityType, offset, total: filtered.length, reset, entities: filtered.slice(offset, offset + limit), types });
  const attr = (id, kind, status, importance, content, note) => ({ id, kind, status, importance, content, supersededBy: status === 'superseded' ? 'x' + id : null, currentnessNote: note });
  const detail = (e) => ({
    summary: e, canonicalName: e.name.toLowerCase(), description: 'Local, explainable memory for coding agents, built as a VS Code extension.', updatedAt: '2026-11-29T14:12:00.000Z',
    aspects: [
      { id: 'a1', name: 'architecture', weight: 0.92, updatedAt: null, attributes: [
        attr('t1', 'constraint', 'active', 0.9, 'src/core must never import vscode; inject through HostContext.', null),
        attr('t2', 'attribute', 'active', 0.7, 'The store is sql.js with FTS5 and a fsync\'d journal shared by every window.', null),
      ] },
      { id: 'a2', name: 'testing', weight: 0.61, updatedAt: null, attributes: [
        attr('t3', 'attribute', 'active', 0.6, 'Unit tests run with mocha through tsx: npm run test:unit.', null),
        attr('t4', 'attribute', 'superseded', 0.5, 'Tests run with jest.', 'Superseded by: Unit tests run with mocha through tsx.'),
      ] },
      { id: 'a3', name: 'release process', weight: 0.34, updatedAt: null, attributes: [] },
      { id: 'a4', name: 'old build scripts', weight: 0.1, updatedAt: null, attributes: [attr('t5', 'attribute', 'active', 0.2, 'gulp builds the webview.', null)] },
    ],
    unassigned: [],
    relations: [
      { id: 'r1', direction: 'outgoing', relationType: 'uses', otherId: entities[2].id, otherName: entities[2].name, strength: 1, confidence: 0.9, mentions: 7 },
      { id: 'r2', direction: 'outgoing', relationType: 'uses', otherId: entities[3].id, otherName: entities[3].name, strength: 0.8, confidence: 0.7, mentions: 3 },
      { id: 'r3', direction: 'incoming', relationType: 'maintains', otherId: entities[1].id, otherName: entities[1].name, strength: 1, confidence: 1, mentions: 12 },
    ],
  });
  const host = (m) => {
    switch (m.type) {
      case 'ready':
        send({ type: 'stats', stats: { counts: { memories: 2412, entities: entities.length, pinned: entities.filter((e) => e.pinned).length, aspects: 31877, attributes: 98210, constraints: 2210, relations: 40120 },
          feedback: { aspectsUpdatedLast7Days: 148, avgAspectWeight: 0.537, aspectsAtMax: 21, aspectsAtMin: 302 },
          telemetry: { feedbackAspectsUpdated: 12, feedbackFtsConfirmations: 19, feedbackDecayedAspects: 40, feedbackPropagatedAttributes: 3, lastRunAt: '2026-11-29T15:02:00.000Z' } } });
        send({ type: 'focal', focal: { source: 'project', resolvedAt: '2026-11-29T15:01:00.000Z', entities: [{ id: entities[0].id, name: entities[0].name, pinned: true }, { id: entities[2].id, name: entities[2].name, pinned: false }] } });
        return;
      case 'search':
        query = m.query; entityType = m.entityType;
        filtered = entities.filter((e) => (!entityType || e.type === entityType) && e.name.toLowerCase().includes(query.toLowerCase()));
        return page(0, 0, cfg.pageAll ? filtered.length : 200, true);
      case 'requestPage': return page(m.requestId, m.offset, m.limit, false);
      case 'selectEntity': { const e = byId.get(m.id); return send({ type: 'detail', id: m.id, detail: e ? detail(e) : null }); }
      case 'setPinned': { const e = byId.get(m.id); if (e) { const n = { ...e, pinned: m.pinned }; byId.set(e.id, n); send({ type: 'delta', total: filtered.length, upserts: [n], removed: [] }); } return; }
      case 'recall':
        return send({ type: 'recallResult', requestId: m.requestId, query: m.query, tookMs: 14, results: [
          { id: 'm1', content: 'Unit tests run with mocha through tsx: `npm run test:unit`, or `node scripts/runUnit.mjs <grep>`.', score: 0.842, relevance: 1, memoryType: 'fact', createdAt: '2026-11-28T09:12:00.000Z',
            explain: { channels: [{ name: 'lexical', value: 0.71, op: 'score' }, { name: 'semantic', value: 0.64, op: 'score' }, { name: 'traversal', value: 0.2, op: 'score' }], boosts: [{ name: 'graph', value: 0.15, op: 'add' }, { name: 'resolution', value: 1.2, op: 'multiply' }], penalties: [], notes: ['matched terms: tests, run', 'linked entity: Agent Memory (pinned)'], lines: ['Relevance 1.00 of 1 (the best result is 1.00); match 0.68 of 1.', 'Found because it shares 2 of 3 words with the question; is close in meaning (similarity 0.64).', 'Pinned: about Agent Memory, and relevant to the question (+25%).'] } },
          { id: 'm2', content: 'Tests run with jest.', score: 0.311, relevance: 0.37, memoryType: 'fact', createdAt: '2026-03-02T10:00:00.000Z',
            explain: { channels: [{ name: 'lexical', value: 0.55, op: 'score' }], boosts: [], penalties: [{ name: 'currentness', value: 0.5, op: 'multiply' }], notes: ['Superseded by: Unit tests run with mocha through tsx.'], lines: ['Relevance 0.37 of 1 (the best result is 1.00); match 0.55 of 1.', 'Found because it shares 1 of 3 words with the question.', 'Superseded: a newer memory replaced facts in it (−50%).'] } },
        ] });
      default: return;
    }
  };
  let state = cfg.state ?? undefined;
  window.__posted = [];
  window.acquireVsCodeApi = () => ({
    postMessage: (m) => { window.__posted.push(m); setTimeout(() => host(m), 0); },
    getState: () => state,
    setState: (s) => { state = s; },
  });
})();
