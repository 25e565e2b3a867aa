// Reading Markdown as GitHub renders it, for the docs tests: the links a page makes and the
// anchors its headings get.

/** Lines outside fenced code blocks. */
function prose(text: string): string[] {
  let fenced = false;
  return text.split('\n').filter((line) => {
    if (/^\s*```/.test(line)) {
      fenced = !fenced;
      return false;
    }
    return !fenced;
  });
}

/** The targets of a page's inline links `[text](target)`, outside code blocks and code spans. */
export function markdownLinks(text: string): string[] {
  return prose(text).flatMap((line) => {
    const withoutCode = line.replace(/`[^`]*`/g, '');
    return [...withoutCode.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1] as string);
  });
}

/** The anchors of a page's headings, as GitHub makes them: lower case, punctuation dropped, spaces to `-`, repeats numbered. */
export function githubSlugs(text: string): Set<string> {
  const slugs = new Set<string>();
  const counts = new Map<string, number>();
  for (const line of prose(text)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const base = (heading[1] as string)
      .replace(/<[^>]+>/g, '')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, '')
      .replace(/ /g, '-');
    const n = counts.get(base) ?? 0;
    counts.set(base, n + 1);
    slugs.add(n === 0 ? base : `${base}-${n}`);
  }
  return slugs;
}
