import { lazy, Suspense } from 'react';

/**
 * The Markdown renderer (with GitHub's tables, task lists and strikethrough) comes with the first
 * Markdown shown, so the console's first load does not carry it.
 */
const Markdown = lazy(() =>
  Promise.all([import('react-markdown'), import('remark-gfm')]).then(([markdown, gfm]) => ({
    default: ({ text, skipHtml }: { text: string; skipHtml: boolean }) => (
      <markdown.default skipHtml={skipHtml} remarkPlugins={[gfm.default]} components={HEADINGS}>
        {text}
      </markdown.default>
    ),
  })),
);

/**
 * A note or a description sits under the page's h1 and its card's h2: its own `# heading` is at
 * most an h3, and the levels below follow (h6 at the deepest).
 */
const HEADINGS = {
  h1: 'h3',
  h2: 'h4',
  h3: 'h5',
  h4: 'h6',
  h5: 'h6',
} as const;

/**
 * Markdown (a note, an incident's description) as text and elements only: raw HTML in it is never
 * rendered (shown as text, or with `skipHtml` left out). The text itself shows while the renderer loads.
 */
export function MarkdownText({ text, skipHtml = false }: { text: string; skipHtml?: boolean }) {
  return (
    <Suspense fallback={<p>{text}</p>}>
      <Markdown text={text} skipHtml={skipHtml} />
    </Suspense>
  );
}
