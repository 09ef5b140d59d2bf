import { strict as assert } from 'node:assert';
import { ENTITY_TYPES } from '../../../src/core/config/extractionConfig';
import { ENTITY_TYPE_ICONS, UNKNOWN_TYPE_ICON, entityTypeIcon } from '../../../webview/entityTypeIcons';

describe('entity type icons', () => {
  it('gives every extracted type its own codicon, and unknown types the question mark', () => {
    const known = ENTITY_TYPES.filter((t) => t !== 'unknown');
    assert.deepEqual(Object.keys(ENTITY_TYPE_ICONS).sort(), [...known].sort());
    const icons = known.map((t) => entityTypeIcon(t));
    assert.equal(new Set(icons.map((i) => i.name)).size, known.length, 'names are distinct');
    assert.equal(new Set(icons.map((i) => i.codePoint)).size, known.length, 'glyphs are distinct');
    assert.ok(icons.every((i) => i.codePoint >= 0xea60 && i.codePoint <= 0xf1ff), 'code points are in the codicon range');
    assert.equal(entityTypeIcon('unknown'), UNKNOWN_TYPE_ICON);
    assert.equal(entityTypeIcon('spaceship'), UNKNOWN_TYPE_ICON);
    assert.equal(entityTypeIcon('constructor'), UNKNOWN_TYPE_ICON, 'no prototype keys');
  });
});
