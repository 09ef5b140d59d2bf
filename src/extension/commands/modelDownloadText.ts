/**
 * What "Memory: Download Embedding Model" tells the user about a planned download (pure, no vscode:
 * unit-tested): the size and file count asked about before anything is fetched, and progress text.
 */
import type { DownloadPlan, DownloadProgress } from '../../core/models/modelDownload';

const KIB = 1024;
const MIB = KIB * KIB;

/** "12.3 MiB" from 1 MiB up, else whole KiB rounded up ("1 KiB" for a few bytes). */
export function formatBytes(bytes: number): string {
  return bytes >= MIB ? `${(bytes / MIB).toFixed(1)} MiB` : `${Math.ceil(bytes / KIB)} KiB`;
}

/** The size-confirmation question, naming the host the files come from (the plan's, so never undefined). */
export function downloadQuestion(plan: DownloadPlan): string {
  return `Download ${plan.repo} (${formatBytes(plan.totalBytes)}, ${plan.files.length} files) from ${plan.baseUrl}?`;
}

export function progressMessage(p: DownloadProgress): string {
  return `${formatBytes(p.bytes)} of ${formatBytes(p.totalBytes)} (${p.file})`;
}
