import { strict as assert } from 'node:assert';
import { createEntityTagger, parseTaggerWeights, serializeTaggerWeights, spansOf } from '../../../src/core/extraction/entityTagger';
import type { TaggerWeights } from '../../../src/core/extraction/entityTagger';
import { wordShape } from '../../../src/core/extraction/entityTaggerFeatures';
import { tokenize } from '../../../src/core/extraction/entityTokens';
import { findMentions, shippedEntityTagger } from '../../../src/core/extraction/entityMentions';

const names = (t: string) => findMentions(t).map((m) => `${m.name}:${m.type}`);

describe('entity tagger', () => {
  it('tokenises like the training data: code-shaped words whole, punctuation and brackets split off', () => {
    assert.deepEqual(tokenize('Call printList() and foo(x), see "ng-map.min.js".').map((t) => t.text),
      ['Call', 'printList()', 'and', 'foo(x)', ',', 'see', '"', 'ng-map.min.js', '"', '.']);
    assert.deepEqual(tokenize('Use C++ and .NET on /etc/profile: it \'s fine').map((t) => t.text),
      ['Use', 'C++', 'and', '.NET', 'on', '/etc/profile', ':', 'it', "'s", 'fine']);
    const t = tokenize('  Hi  Sam!');
    assert.deepEqual(t.map((x) => [x.text, x.start, x.end]), [['Hi', 2, 4], ['Sam', 6, 9], ['!', 9, 10]]);
  });

  it('computes word shapes with runs collapsed', () => {
    assert.equal(wordShape('printList()'), 'xXx()');
    assert.equal(wordShape('HTTP2'), 'Xd');
  });

  it('decodes BIO tags into character spans, starting a span at a stray I- tag', () => {
    const s = 'use Visual Studio Code and npm';
    const spans = spansOf(s, tokenize(s), ['O', 'B-tool', 'I-tool', 'I-tool', 'O', 'I-package']);
    assert.deepEqual(spans.map((x) => [x.name, x.type]), [['Visual Studio Code', 'tool'], ['npm', 'package']]);
  });

  it('scores with hand-set weights: the feature sum decides, the outside bias moves the threshold', () => {
    const weights: TaggerWeights = { labels: ['O', 'B-tool', 'I-tool'], outsideBias: 0, weights: new Map([['w=redis', [[1, 2]] as const], ['b', [[0, 1]] as const]]) };
    assert.deepEqual(createEntityTagger(weights).tagWords(['we', 'use', 'redis']), ['O', 'O', 'B-tool']);
    assert.deepEqual(createEntityTagger({ ...weights, outsideBias: 1.5 }).tagWords(['we', 'use', 'redis']), ['O', 'O', 'O']);
    assert.deepEqual(createEntityTagger(weights, (lw) => lw === 'redis').tagWords(['redis']), ['B-tool'], 'the gazetteer callback runs');
  });

  it('round-trips its serialised weights', () => {
    const weights: TaggerWeights = { labels: ['O', 'B-tool'], outsideBias: -0.5, weights: new Map([['w=a|b', [[0, 0.25], [1, -1.5]] as const]]) };
    const back = parseTaggerWeights(JSON.parse(JSON.stringify(serializeTaggerWeights(weights))));
    assert.deepEqual([...back.weights], [...weights.weights]);
    assert.equal(back.outsideBias, -0.5);
  });

  it('ships trained weights that find software names in prose', () => {
    const found = shippedEntityTagger().tag('I installed Android Studio on Windows and call getString() from MainActivity.').map((s) => s.name);
    for (const n of ['Android Studio', 'Windows', 'MainActivity']) assert.ok(found.includes(n), `${n} in ${found.join(', ')}`);
  });

  it('never returns weekdays, months, greetings, HTTP verbs, protocol words or numbers as entities', () => {
    const text = 'Maybe on Friday. Thanks! GET and POST in UTC with ISO dates, PORT=8080 and CHECK in May, on Fridays.';
    assert.deepEqual(names(text), []);
  });
});
