import { countLinks, renderCommentMarkdown, renderCommentMarkdown as render } from './markdown';

const REL = 'rel="nofollow ugc noopener"';

describe('comment Markdown: the CommonMark cases rendered', () => {
  it.each([
    ['paragraphs', 'one\n\ntwo', '<p>one</p>\n<p>two</p>\n'],
    ['line breaks (a newline is a break in a comment)', 'one\ntwo', '<p>one<br />\ntwo</p>\n'],
    ['hard line breaks', 'one\\\ntwo', '<p>one<br />\ntwo</p>\n'],
    ['emphasis', '*a* _b_', '<p><em>a</em> <em>b</em></p>\n'],
    ['strong', '**a** __b__', '<p><strong>a</strong> <strong>b</strong></p>\n'],
    ['inline code, its HTML as text', '`<b>x</b>`', '<p><code>&lt;b&gt;x&lt;/b&gt;</code></p>\n'],
    ['fenced code blocks', '```js\nlet a = "<b>";\n```', '<pre><code class="language-js">let a = "&lt;b&gt;";\n</code></pre>\n'],
    ['indented code blocks', '    code line', '<pre><code>code line\n</code></pre>\n'],
    ['block quotes', '> quoted', '<blockquote>\n<p>quoted</p>\n</blockquote>\n'],
    ['bullet lists', '- a\n- b', '<ul>\n<li>a</li>\n<li>b</li>\n</ul>\n'],
    ['ordered lists', '3. a\n4. b', '<ol start="3">\n<li>a</li>\n<li>b</li>\n</ol>\n'],
    ['links', '[site](https://example.com/a?b=1&c=2)', `<p><a href="https://example.com/a?b=1&amp;c=2" ${REL}>site</a></p>\n`],
    ['mailto links', '[mail](mailto:ada@example.com)', `<p><a href="mailto:ada@example.com" ${REL}>mail</a></p>\n`],
    ['autolinks', '<https://example.com>', `<p><a href="https://example.com" ${REL}>https://example.com</a></p>\n`],
    ['bare URLs', 'see https://example.com/x.', `<p>see <a href="https://example.com/x" ${REL}>https://example.com/x</a>.</p>\n`],
    ['bare e-mail addresses', 'ada@example.com', `<p><a href="mailto:ada@example.com" ${REL}>ada@example.com</a></p>\n`],
  ])('%s', (_case, input, html) => {
    expect(render(input)).toBe(html);
  });

  it.each([
    ['headings stay text', '# Title', '<p># Title</p>\n'],
    ['setext headings stay text', 'Title\n===', '<p>Title<br />\n===</p>\n'],
    ['images are not embedded', '![alt](https://example.com/a.png)', `<p>!<a href="https://example.com/a.png" ${REL}>alt</a></p>\n`],
    ['thematic breaks stay text', '***', '<p>***</p>\n'],
    ['tables stay text', '| a |\n|---|\n| 1 |', '<p>| a |<br />\n|---|<br />\n| 1 |</p>\n'],
  ])('not rendered: %s', (_case, input, html) => {
    expect(render(input)).toBe(html);
  });

  it('an empty comment (a tombstone) renders empty', () => {
    expect(render('')).toBe('');
  });
});

describe('comment Markdown: hostile input', () => {
  it.each([
    ['a script tag', '<script>alert(1)</script>', '<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>\n'],
    ['an event handler', '<img src=x onerror=alert(1)>', '<p>&lt;img src=x onerror=alert(1)&gt;</p>\n'],
    ['an inline tag with a handler', 'a <b onmouseover="alert(1)">b</b>', '<p>a &lt;b onmouseover="alert(1)"&gt;b&lt;/b&gt;</p>\n'],
    ['a javascript: link', '[x](javascript:alert(1))', '<p>[x](javascript:alert(1))</p>\n'],
    ['a javascript: link in capitals and spaces', '[x]( JaVaScRiPt:alert(1))', '<p>[x]( JaVaScRiPt:alert(1))</p>\n'],
    ['an entity-encoded javascript: link', '[x](jav&#x61;script:alert(1))', '<p>[x](javascript:alert(1))</p>\n'],
    ['a javascript: autolink', '<javascript:alert(1)>', '<p>&lt;javascript:alert(1)&gt;</p>\n'],
    ['a data: link', '[x](data:text/html;base64,PHNjcmlwdD4=)', '<p>[x](data:text/html;base64,PHNjcmlwdD4=)</p>\n'],
    ['a vbscript: link', '[x](vbscript:msgbox)', '<p>[x](vbscript:msgbox)</p>\n'],
    ['a protocol-relative link', '[x](//evil.example)', '<p>[x](//evil.example)</p>\n'],
    ['a relative link', '[x](/admin)', '<p>[x](/admin)</p>\n'],
    ['an attribute break-out in a title', '[a](https://x.example "t\\" onmouseover=alert(1)")', `<p><a href="https://x.example" ${REL}>a</a></p>\n`],
    ['a quote in the URL', '[a](https://x.example/"onmouseover="alert(1))', `<p><a href="https://x.example/%22onmouseover=%22alert(1)" ${REL}>a</a></p>\n`],
    ['an HTML comment', '<!-- <script>x</script> -->', '<p>&lt;!-- &lt;script&gt;x&lt;/script&gt; --&gt;</p>\n'],
    ['entities stay entities', '&lt;script&gt; &#60;b&#62;', '<p>&lt;script&gt; &lt;b&gt;</p>\n'],
  ])('%s', (_case, input, html) => {
    const out = render(input);
    expect(out).toBe(html);
    expect(out).not.toMatch(/<(?!\/?(p|br|em|strong|code|pre|blockquote|ul|ol|li|a)[\s>/])/);
    expect(out).not.toMatch(/href="(?!https?:|mailto:)/);
  });

  it('every link carries rel="nofollow ugc noopener" and nothing else', () => {
    const out = render('[a](https://a.example) <https://b.example> https://c.example ada@example.com');
    expect(out.match(/<a /g)).toHaveLength(4);
    expect(out.match(/<a href="[^"]+" rel="nofollow ugc noopener">/g)).toHaveLength(4);
  });

  // Linear, not a wall-clock bound (docs/testing.md#unit-tests-of-pure-modules): the time of 10,000 characters over
  // the time of 1,000, which is about 10 for a linear renderer and about 100 for a quadratic one. Both sizes are
  // timed in turns (a 10,000-character render, then ten 1,000-character renders: the same work if it is linear), 11
  // rounds, and the medians compared, so a load that slows the machine slows both and a pause spoils one round only.
  const ROUNDS = 11;
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const timed = (run: () => void) => {
    const started = performance.now();
    run();
    return performance.now() - started;
  };
  const growth = (small: string, large: string, render = renderCommentMarkdown): number => {
    const tenSmall = () => {
      for (let i = 0; i < 10; i += 1) render(small);
    };
    // Warm-up: the renderer's first calls compile its rules and the engine optimizes them.
    for (let i = 0; i < 2; i += 1) {
      tenSmall();
      render(large);
    }
    const smallTimes: number[] = [];
    const largeTimes: number[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      largeTimes.push(timed(() => render(large)));
      smallTimes.push(timed(tenSmall) / 10);
    }
    return median(largeTimes) / Math.max(median(smallTimes), 0.001);
  };
  it.each([
    ['nested emphasis', (n: number) => '*_'.repeat(n / 2)],
    ['unclosed emphasis runs', (n: number) => '*a **'.repeat(n / 5)],
    ['openers without closers', (n: number) => `${'*'.repeat(n / 2)}a${'_'.repeat(n / 2)}`],
    ['nested brackets', (n: number) => `${'['.repeat(n / 2)}${']'.repeat(n / 2)}`],
    ['nested block quotes', (n: number) => '>'.repeat(n)],
    ['nested lists', (n: number) => Array.from({ length: Math.ceil(Math.sqrt(n) * 4) }, (_, depth) => `${'  '.repeat(depth)}- x`).join('\n').slice(0, n)],
    ['many links', (n: number) => '[a](https://x.example) '.repeat(Math.ceil(n / 23)).slice(0, n)],
  ])('stays linear on %s (1,000 and 10,000 characters)', (_case, input) => {
    // 3 times the linear figure, a third of the quadratic one.
    expect(growth(input(1000), input(10_000))).toBeLessThan(30);
  });

  it('the linearity measure tells a quadratic renderer (the same input, every prefix scanned) from a linear one', () => {
    const quadratic = (text: string) => {
      let sum = 0;
      for (let end = 0; end < text.length; end += 8) for (let i = 0; i < end; i += 1) sum += text.charCodeAt(i);
      return String(sum);
    };
    expect(growth('*a **'.repeat(200), '*a **'.repeat(2000), quadratic)).toBeGreaterThan(30);
  });
});

describe('countLinks', () => {
  it('counts the links the renderer makes, not the ones it refuses', () => {
    expect(countLinks('[a](https://a.example) <https://b.example> https://c.example ada@example.com')).toBe(4);
    expect(countLinks('[a](javascript:alert(1)) [b](/x) plain text')).toBe(0);
  });
});
