/**
 * What the panel remembers across reloads (vscode.setState/getState): the tab, the search, the
 * selected entity, the scroll position and the last playground run. Restored state is decoded
 * like any other input, so a state saved by an older version is dropped rather than trusted.
 */
import { array, bool, int, nullable, num, object, oneOf, runDecoder, str } from '../src/shared/decode';
import type { Decoder } from '../src/shared/decode';
import { PROTOCOL_LIMITS as L, recallResultDecoder } from '../src/shared/knowledgeProtocol';
import type { PanelSection, RecallResultView } from '../src/shared/knowledgeProtocolTypes';

/** The last playground run, kept so the results survive a reload. */
export interface RecallState {
  readonly query: string;
  readonly tookMs: number;
  readonly results: readonly RecallResultView[];
}

export type Tab = PanelSection;

export interface ViewState {
  readonly tab: Tab;
  readonly query: string;
  readonly entityType: string | null;
  readonly selectedId: string | null;
  /** In a narrow view the detail replaces the list; true while it does (Back returns to the list). */
  readonly detailOpen: boolean;
  readonly scrollTop: number;
  readonly activeIndex: number;
  readonly recallQuery: string;
  readonly recall: RecallState | null;
}

export const INITIAL_VIEW_STATE: ViewState = {
  tab: 'entities', query: '', entityType: null, selectedId: null, detailOpen: false, scrollTop: 0, activeIndex: 0, recallQuery: '', recall: null,
};

const stateDecoder: Decoder<ViewState> = object({
  tab: oneOf(['entities', 'recall', 'overview', 'captured']),
  query: str(0, L.searchLength),
  entityType: nullable(str(1, L.typeLength)),
  selectedId: nullable(str(1, L.idLength)),
  detailOpen: bool,
  scrollTop: num(0, 1e9),
  activeIndex: int(0, L.totalMax),
  recallQuery: str(0, L.recallQueryLength),
  recall: nullable(object({ query: str(0, L.recallQueryLength), tookMs: num(0, 1e9), results: array(recallResultDecoder, L.recallLimitMax) })),
});

/** The saved state when it is well-formed, otherwise the initial state. */
export function restoreViewState(saved: unknown): ViewState {
  const r = runDecoder(stateDecoder, saved);
  return r.ok ? r.value : INITIAL_VIEW_STATE;
}
