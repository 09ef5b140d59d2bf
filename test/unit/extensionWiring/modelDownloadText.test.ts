import { strict as assert } from 'node:assert';
import type { DownloadPlan } from '../../../src/core/models/modelDownload';
import { downloadQuestion, formatBytes, progressMessage } from '../../../src/extension/commands/modelDownloadText';

const plan: DownloadPlan = {
  repo: 'Xenova/all-MiniLM-L6-v2',
  revision: 'main',
  baseUrl: 'https://huggingface.co',
  files: [{ path: 'config.json', size: 650, gitBlobId: 'a'.repeat(40) }, { path: 'onnx/model.onnx', size: 90_387_630, sha256: 'b'.repeat(64) }],
  totalBytes: 90_388_280,
};

describe('Download Embedding Model texts', () => {
  it('shows sizes from 1 MiB in MiB with one decimal and smaller sizes in whole KiB rounded up', () => {
    assert.equal(formatBytes(90_388_280), '86.2 MiB');
    assert.equal(formatBytes(1024 * 1024), '1.0 MiB');
    assert.equal(formatBytes(1024 * 1024 - 1), '1024 KiB');
    assert.equal(formatBytes(650), '1 KiB');
    assert.equal(formatBytes(0), '0 KiB');
  });

  it('asks with the total size, the file count and the host the plan downloads from', () => {
    assert.equal(downloadQuestion(plan), 'Download Xenova/all-MiniLM-L6-v2 (86.2 MiB, 2 files) from https://huggingface.co?');
  });

  it('reports progress as bytes of total and the current file', () => {
    assert.equal(progressMessage({ file: 'onnx/model.onnx', bytes: 2 * 1024 * 1024, totalBytes: plan.totalBytes }), '2.0 MiB of 86.2 MiB (onnx/model.onnx)');
  });
});
