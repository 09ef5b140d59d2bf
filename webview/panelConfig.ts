/**
 * Fixed tuning of the Knowledge panel, shared by the webview and its host controller. These are
 * UI mechanics (not user-tunable behaviour), so they live here rather than in the core config.
 */
export const PANEL_CONFIG = {
  /** Rows the webview asks for at a time; one page is ~40 KB of JSON. */
  pageSize: 200,
  /** Rows rendered beyond each edge of the visible window, so fast scrolling shows no gaps. */
  overscanRows: 12,
  /** Height of a list row in CSS pixels (VS Code's own lists use 22). */
  rowHeight: 22,
  /** Keystrokes in the search box are coalesced for this long before the host is asked. */
  searchDebounceMs: 150,
  /** After a store change the host re-reads at most this many loaded rows to compute a delta;
   *  beyond it, it resends the visible page and the webview reloads the rest lazily. */
  refreshSpanMax: 2_000,
  /** Store changes arriving in a burst are coalesced for this long before the panel refreshes. */
  refreshDebounceMs: 150,
  /** Results the recall playground asks for. */
  recallLimit: 10,
  /** Health thresholds for a *stable* trend (webview/health.ts): a win rate at or above the high
   *  one is green; below the low one, with the baseline ahead on average, red. */
  healthHighWinRate: 0.65,
  healthLowWinRate: 0.4,
  /** Comparisons before an entity gets a dot at all: fewer are not enough evidence for a colour
   *  (three comparisons gave the demo 28 yellow dots that said nothing; issue #27). */
  healthMinComparisons: 10,
} as const;
