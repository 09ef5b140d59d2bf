import { strict as assert } from 'node:assert';
import { decodeDocumentState, DOCUMENT_STATE_MAX_CHARS, documentHtml, escapedPre } from '../../../src/extension/documents/documentHtml';
import { maintenanceReportTitle } from '../../../src/extension/commands/maintenanceText';
import type { MaintenanceReport } from '../../../src/core/maintenance/maintenanceTypes';

const parts = (markdown: string, bodyHtml = '<h1>Report</h1>') => ({
  cspSource: 'vscode-resource:', styleUri: 'vscode-resource:/media/document.css', bodyHtml, nonce: 'n0nce', state: { kind: 'report' as const, title: 'Maintenance Report, 2026-12-02 06:40 UTC', markdown },
});

/** Generated documents in titled webview tabs that survive a reload (issue #27; documentPanels.ts). */
describe('generated documents: titled tabs restored after a reload', () => {
  it('carries the document as saved state, restorable by the serializer', () => {
    const html = documentHtml(parts('# Report\n\n- a'));
    const json = /<script type="application\/json" id="document-state">(.*)<\/script>/.exec(html)?.[1];
    assert.ok(json);
    assert.deepEqual(decodeDocumentState(JSON.parse(json)), { kind: 'report', title: 'Maintenance Report, 2026-12-02 06:40 UTC', markdown: '# Report\n\n- a' });
    assert.match(html, /<title>Maintenance Report, 2026-12-02 06:40 UTC<\/title>/);
  });

  it('runs only its own nonce\'d script: a memory text with markup cannot close the state or add a script', () => {
    const evil = 'we use </script><script>alert(1)</script> <!-- and \u2028';
    const html = documentHtml(parts(evil, escapedPre(evil)));
    assert.match(html, /script-src 'nonce-n0nce'/);
    assert.match(html, /default-src 'none'/);
    assert.equal((html.match(/<script/g) ?? []).length, 2, 'the state block and the nonce\'d script only');
    assert.doesNotMatch(html, /<script>alert/);
    const json = /id="document-state">(.*)<\/script>\n<script nonce/s.exec(html)?.[1];
    assert.equal(decodeDocumentState(JSON.parse(json ?? 'null'))?.markdown, evil);
  });

  it('refuses a saved state that is not a document', () => {
    for (const bad of [null, 'x', {}, { kind: 'other', title: 't', markdown: '' }, { kind: 'status', title: ' ', markdown: '' },
      { kind: 'status', title: 't', markdown: 3 }, { kind: 'report', title: 't', markdown: 'x'.repeat(DOCUMENT_STATE_MAX_CHARS + 1) }]) {
      assert.equal(decodeDocumentState(bad), undefined, JSON.stringify(bad).slice(0, 80));
    }
    assert.deepEqual(decodeDocumentState({ kind: 'status', title: 'Memory Status', markdown: '', extra: 1 }), { kind: 'status', title: 'Memory Status', markdown: '' });
  });

  it('titles a maintenance report by when it ran, never "1.md"', () => {
    const r = { runId: 'manual:178bee27', startedAt: '2026-12-02T06:40:11.000Z', finishedAt: '2026-12-02T06:40:13.000Z', tasks: [], unknownTasks: [] } as unknown as MaintenanceReport;
    assert.equal(maintenanceReportTitle(r), 'Maintenance Report, 2026-12-02 06:40 UTC');
  });
});
