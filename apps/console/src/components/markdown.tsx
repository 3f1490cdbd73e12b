import { lazy, Suspense } from 'react';

/** The Markdown renderer comes with the first Markdown shown, so the console's first load does not carry it. */
const Markdown = lazy(() => import('react-markdown'));

/**
 * Markdown (a note, an incident's description) as text and elements only: raw HTML in it is never
 * rendered (shown as text, or with `skipHtml` left out). The text itself shows while the renderer loads.
 */
export function MarkdownText({ text, skipHtml = false }: { text: string; skipHtml?: boolean }) {
  return (
    <Suspense fallback={<p>{text}</p>}>
      <Markdown skipHtml={skipHtml}>{text}</Markdown>
    </Suspense>
  );
}
