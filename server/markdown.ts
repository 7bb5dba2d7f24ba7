/**
 * A deliberately small Markdown renderer: paragraphs, line breaks, **bold**, *italic*,
 * `code`, fenced code blocks and [text](http...) links, with everything else escaped.
 * Enough for the demo content and profile fields; it never emits raw user HTML.
 */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

function emphasis(escaped: string): string {
  return escaped
    .replace(/\[([^\]]+)\]\((https?:\/\/[^\s)]+)\)/g, '<a href="$2">$1</a>')
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
    .replace(/(^|[^*])\*([^*\s][^*]*)\*/g, '$1<em>$2</em>');
}

/** Code spans are taken out first, so nothing inside them is formatted. */
function inline(text: string): string {
  return text
    .split(/(`[^`]+`)/)
    .map((part, i) =>
      i % 2 === 1 ? `<code>${escapeHtml(part.slice(1, -1))}</code>` : emphasis(escapeHtml(part)),
    )
    .join('');
}

export function renderMarkdown(source: string): string {
  const blocks: string[] = [];
  const fence = /^```(\w*)\n([\s\S]*?)\n```$/gm;
  let last = 0;
  const paragraphs = (text: string) => {
    for (const para of text.split(/\n{2,}/)) {
      const trimmed = para.trim();
      if (trimmed) blocks.push(`<p>${trimmed.split('\n').map(inline).join('<br>\n')}</p>`);
    }
  };
  for (const match of source.matchAll(fence)) {
    paragraphs(source.slice(last, match.index));
    const lang = match[1] ? ` data-code-language="${escapeHtml(match[1])}"` : '';
    blocks.push(
      `<div class="codehilite"${lang}><pre><code>${escapeHtml(match[2] ?? '')}\n</code></pre></div>`,
    );
    last = match.index + match[0].length;
  }
  paragraphs(source.slice(last));
  return blocks.join('\n');
}
