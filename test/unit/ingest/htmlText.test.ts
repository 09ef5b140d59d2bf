import { strict as assert } from 'node:assert';
import { decodeEntities, htmlToText } from '../../../src/core/ingest/htmlText';

describe('HTML to text', () => {
  it('drops script and style blocks and strips tags', () => {
    const { text } = htmlToText('<html><head><style>p{color:red}</style><script>var a = "<p>";</script></head><body><p>Hello <b>world</b></p><SCRIPT type="x">evil()</SCRIPT><p>Bye</p></body></html>');
    assert.equal(text, 'Hello world\nBye');
  });

  it('takes the title from the first <title>', () => {
    assert.equal(htmlToText('<title>First &amp; best</title><title>Second</title><p>x</p>').title, 'First & best');
    assert.equal(htmlToText('<p>no title</p>').title, undefined);
  });

  it('decodes entities with &amp; last so double-encoded text stays literal', () => {
    assert.equal(decodeEntities('&lt;a&gt; &quot;q&quot; &#39;s&#39; &nbsp;x &amp;lt; &#65;&#x42;'), '<a> "q" \'s\'  x &lt; AB');
  });

  it('does not treat <scripts> or <styled> as blocks', () => {
    assert.equal(htmlToText('<p>a</p><styled>b</styled>').text, 'a\nb');
  });

  it('still drops a real <style> block that follows a <styled> element', () => {
    assert.equal(htmlToText('<script>a()</script><styled>keep</styled><p>text</p><style>p{}</style><p>end</p>').text, 'keep text\nend');
  });

  it('drops an unclosed script to the end', () => {
    assert.equal(htmlToText('<p>keep</p><script>never closed').text, 'keep');
  });
});
