/**
 * The Knowledge panel's Captured tab (issue 23, "Seeing and undoing it"): the memories Agent
 * Memory kept from agent conversations (hooks, VS Code chat history), newest first, each with its
 * agent, time, session and turn, and two ways to undo it: *Wrong or outdated* (retired: out of
 * recall, kept as history, the aspects it supported lowered) and *Forget* (deleted for good; asks
 * for a second click). The host side is src/extension/knowledge/capturesController.ts.
 */
import { h } from './dom';
import type { CaptureAction, CapturedMemoryView } from '../src/shared/knowledgeProtocolTypes';

/** How long a first click on Forget waits for the confirming second one. */
const CONFIRM_MS = 5_000;

export interface CapturedTabEvents {
  act(id: string, action: CaptureAction): void;
}

const pad = (n: number): string => String(n).padStart(2, '0');

/** Local time, locale-free: "today 14:05", or "2026-11-29 14:05". */
export function fmtCaptureTime(iso: string, now: Date = new Date()): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const day = `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
  const today = `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
  return `${day === today ? 'today' : day} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

export class CapturedTab {
  readonly element: HTMLElement;
  private readonly meta = h('p', { class: 'meta captured-meta' }, 'Loading…');
  private readonly status = h('p', { class: 'capture-status', role: 'status', 'aria-live': 'polite' });
  private readonly list = h('ol', { class: 'captures', 'aria-label': 'Captured memories, newest first' });
  private readonly empty = h('p', { class: 'empty', hidden: true },
    'Nothing captured yet. Connect an agent (Memory: Connect Agents…) or turn on VS Code chat history capture (agentMemory.capture.chatHistory): the decisions, preferences and constraints agents hear show up here.');
  private confirmTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly events: CapturedTabEvents) {
    this.element = h('section', { role: 'tabpanel', id: 'panel-captured', 'aria-labelledby': 'tab-captured', class: 'panel captured' },
      this.meta, this.status, this.empty, this.list);
    this.list.addEventListener('click', (e) => this.onClick(e));
  }

  /** A new list from the host. */
  show(captures: readonly CapturedMemoryView[], capturedToday: number, limit: number): void {
    const active = captures.filter((c) => c.status === 'active').length;
    this.meta.textContent = captures.length
      ? `${captures.length === limit ? `Latest ${limit}` : `${captures.length}`} captured from agent conversations · ${capturedToday} today · ${active} in recall`
      : 'Memories captured from agent conversations (hooks, VS Code chat history).';
    this.empty.hidden = captures.length > 0;
    this.list.hidden = captures.length === 0;
    const focusedId = (this.list.querySelector(':focus')?.closest('[data-id]') as HTMLElement | null)?.dataset.id;
    this.list.replaceChildren(...captures.map((c) => this.item(c)));
    if (focusedId) (this.list.querySelector<HTMLElement>(`[data-id="${CSS.escape(focusedId)}"] button`) ?? this.list.querySelector<HTMLElement>('button'))?.focus();
  }

  /** What an action did (announced). */
  done(message: string): void {
    this.status.classList.remove('error');
    this.status.textContent = message;
  }

  error(message: string): void {
    this.status.classList.add('error');
    this.status.textContent = message;
  }

  private item(c: CapturedMemoryView): HTMLElement {
    const retired = c.status === 'retired';
    const provenance = [`session ${c.sessionId || '—'}`, c.turnKey ? `turn ${c.turnKey}` : '', c.project ? `project ${c.project}` : ''].filter(Boolean).join(' · ');
    return h('li', { class: `capture status-${c.status}`, 'data-id': c.id },
      h('div', { class: 'capture-head' },
        h('span', { class: 'badge harness', title: `Captured from ${c.harnessLabel}` }, c.harnessLabel),
        h('time', { class: 'muted small', datetime: c.capturedAt, title: c.capturedAt }, fmtCaptureTime(c.capturedAt)),
        retired ? h('span', { class: 'badge stale', title: 'Marked wrong or outdated: no longer recalled, kept as history' }, 'wrong or outdated') : null,
        c.status === 'superseded' ? h('span', { class: 'badge warn', title: 'A newer memory replaced what this one says' }, 'superseded') : null),
      h('div', { class: 'capture-content' }, c.content),
      h('div', { class: 'capture-provenance muted small', title: provenance }, provenance),
      h('div', { class: 'actions capture-actions' },
        retired ? h('span', { class: 'muted small' }, 'Kept as history, not recalled.') : h('button', {
          type: 'button', class: 'button secondary', 'data-action': 'markWrong',
          title: 'Retire it: no longer recalled, kept as history, and the aspects it supported lose weight (negative feedback)',
        }, 'Wrong or outdated'),
        h('button', { type: 'button', class: 'button secondary', 'data-action': 'forget', title: 'Delete it for good, with its vectors and graph traces' }, 'Forget')));
  }

  private onClick(e: Event): void {
    const button = (e.target as Element).closest('button[data-action]') as HTMLButtonElement | null;
    const id = (button?.closest('[data-id]') as HTMLElement | null)?.dataset.id;
    if (!button || !id) return;
    const action = button.dataset.action as CaptureAction;
    if (action === 'forget' && button.dataset.confirm !== 'yes') {
      // Forget cannot be undone: the first click asks, a second one within CONFIRM_MS deletes.
      this.resetConfirm();
      button.dataset.confirm = 'yes';
      button.textContent = 'Forget for good?';
      button.classList.add('confirm');
      this.confirmTimer = setTimeout(() => this.resetConfirm(), CONFIRM_MS);
      return;
    }
    this.resetConfirm();
    button.disabled = true;
    this.status.classList.remove('error');
    this.status.textContent = action === 'forget' ? 'Forgetting…' : 'Marking wrong or outdated…';
    this.events.act(id, action);
  }

  private resetConfirm(): void {
    clearTimeout(this.confirmTimer);
    for (const b of this.list.querySelectorAll<HTMLButtonElement>('button[data-confirm="yes"]')) {
      delete b.dataset.confirm;
      b.textContent = 'Forget';
      b.classList.remove('confirm');
    }
  }
}
