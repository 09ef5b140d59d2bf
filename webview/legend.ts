/**
 * The legend of the entity list: what the health dot colours, the pin, the counters and the type
 * icons mean. Shown under the list header when the "Legend" toggle is on.
 */
import { codicon, h, pinIcon } from './dom';
import { ENTITY_TYPE_ICONS, UNKNOWN_TYPE_ICON } from './entityTypeIcons';
import { HEALTH_LEGEND } from './health';

/** The counters of a list row, in their order: letter, singular, plural. */
export const COUNTERS = [
  ['a', 'aspect', 'aspects'],
  ['t', 'attribute', 'attributes'],
  ['c', 'constraint', 'constraints'],
  ['r', 'relation', 'relations'],
] as const;

const COLOUR_NAMES = { good: 'green', stable: 'yellow', bad: 'red', none: 'no dot' } as const;

export function renderLegend(): HTMLElement {
  const health = h('ul', { class: 'legend-list' }, ...HEALTH_LEGEND.map(([level, text]) =>
    h('li', {}, h('span', { class: `dot health-${level}` }), h('span', {}, `${COLOUR_NAMES[level]}: ${text}`))));
  const counters = h('ul', { class: 'legend-list' }, ...COUNTERS.map(([letter, , many]) =>
    h('li', {}, h('span', { class: 'legend-key' }, `3${letter}`), h('span', {}, `3 ${many}`))));
  const pin = h('ul', { class: 'legend-list' },
    h('li', {}, h('span', { class: 'pin-toggle on' }, pinIcon(true)), h('span', {}, 'pinned: always focal in recall (click the pin or press P)')),
    h('li', {}, h('span', { class: 'pin-toggle' }, pinIcon(false)), h('span', {}, 'not pinned')));
  const types = h('ul', { class: 'legend-list legend-types' }, ...[...Object.entries(ENTITY_TYPE_ICONS), ['other', UNKNOWN_TYPE_ICON] as const].map(([type, icon]) =>
    h('li', {}, codicon(icon.codePoint), h('span', {}, type))));
  return h('div', { class: 'legend', id: 'entity-legend', role: 'region', 'aria-label': 'Legend' },
    h('h3', {}, 'Health (learned ranker)'), health,
    h('h3', {}, 'Pin'), pin,
    h('h3', {}, 'Counts'), counters,
    h('h3', { class: 'types-heading' }, 'Types'), types);
}
