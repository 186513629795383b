/**
 * A comment's Markdown as the `contentHtml` of its node: markdown-it with raw HTML off, then sanitize-html as a
 * second wall allowing exactly the tags the renderer is configured to produce. What is rendered and why:
 * docs/comments.md#markdown.
 */
import type MarkdownIt from 'markdown-it';
import type SanitizeHtml from 'sanitize-html';
import { lazyRequire, onFirstUse } from '../../platform/lazy-require';

export const LINK_REL = 'nofollow ugc noopener';
const LINK_SCHEMES = ['http', 'https', 'mailto'];
const SAFE_LINK = /^(?:https?:\/\/|mailto:)/i;

const markdownIt = lazyRequire<typeof MarkdownIt>('markdown-it');
const sanitizeHtml = lazyRequire<typeof SanitizeHtml>('sanitize-html');

/** The renderer, made on the first comment rendered (the libraries are loaded then, not at start). */
const markdown = onFirstUse(() => {
  const md = new (markdownIt())('default', { html: false, linkify: true, breaks: true, typographer: false });
  // Only the CommonMark blocks and inlines comments need: headings, images, rules and tables are not rendered as such.
  md.disable(['heading', 'lheading', 'image', 'hr', 'table', 'strikethrough', 'html_block', 'html_inline']);
  // A link to anything but http(s) or mailto stays text (relative links and fragments too: a comment has no base URL).
  md.validateLink = (url) => SAFE_LINK.test(url.trim());

  const defaultLinkOpen = md.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
  md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
    tokens[idx].attrSet('rel', LINK_REL);
    return defaultLinkOpen(tokens, idx, options, env, self);
  };
  return md;
});

const SANITIZE: SanitizeHtml.IOptions = {
  allowedTags: ['p', 'br', 'em', 'strong', 'code', 'pre', 'blockquote', 'ul', 'ol', 'li', 'a'],
  allowedAttributes: { a: ['href', 'rel'], ol: ['start'], code: ['class'] },
  allowedClasses: { code: ['language-*'] },
  allowedSchemes: LINK_SCHEMES,
  allowedSchemesByTag: { a: LINK_SCHEMES },
  allowProtocolRelative: false,
  disallowedTagsMode: 'escape',
  transformTags: { a: (tagName, attribs) => ({ tagName, attribs: { ...attribs, rel: LINK_REL } }) },
};

/** The HTML of a comment's Markdown (an empty string for an empty comment). */
export const renderCommentMarkdown = (content: string): string =>
  content ? sanitizeHtml()(markdown().render(content), SANITIZE) : '';

/** Links the renderer would make of `content` (Markdown links, autolinks and bare URLs to allowed schemes). */
export const countLinks = (content: string): number => {
  let count = 0;
  const walk = (tokens: ReturnType<ReturnType<typeof markdown>['parse']>) => {
    for (const token of tokens) {
      if (token.type === 'link_open') count += 1;
      if (token.children) walk(token.children);
    }
  };
  walk(markdown().parse(content, {}));
  return count;
};

/**
 * The same wall for HTML written elsewhere (an imported post, docs/import.md#html-to-markdown): the comments' allowed
 * schemes and link `rel`, with the tags an article's Markdown can hold; `<script>`, `<style>`, `<iframe>`, every
 * event handler attribute and any `javascript:` URL are dropped, the text of scripts and styles with them.
 */
const RICH_SANITIZE: SanitizeHtml.IOptions = {
  ...SANITIZE,
  allowedTags: [...(SANITIZE.allowedTags as string[]), 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'img', 'hr', 'del', 's', 'b', 'i', 'u', 'figure', 'figcaption', 'div', 'span', 'table', 'thead', 'tbody', 'tr', 'th', 'td'],
  allowedAttributes: { a: ['href', 'rel', 'title'], img: ['src', 'alt', 'title'], ol: ['start'], code: ['class'] },
  allowedSchemesByTag: { a: LINK_SCHEMES, img: ['http', 'https'] },
  disallowedTagsMode: 'discard',
};

export const sanitizeRichHtml = (html: string): string => (html ? sanitizeHtml()(html, RICH_SANITIZE) : '');
