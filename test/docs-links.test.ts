// The manual's links hold: every relative link of README.md and docs/*.md names a file that
// exists and, with a #fragment, a heading of that file (GitHub's slugs); every page of docs/
// is reachable from docs/README.md, the index.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { githubSlugs, markdownLinks } from './support/markdown.js';

const root = path.resolve(import.meta.dirname, '..');
const docs = readdirSync(path.join(root, 'docs'))
  .filter((f) => f.endsWith('.md'))
  .map((f) => `docs/${f}`);
const pages = ['README.md', ...docs];
const read = (rel: string) => readFileSync(path.join(root, rel), 'utf8');

describe('links of README.md and docs/', () => {
  it.each(pages)('%s: every relative link and anchor resolves', (page) => {
    const broken: string[] = [];
    for (const link of markdownLinks(read(page))) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(link)) continue; // https:, mailto:
      const [target = '', fragment] = link.split('#');
      const file = target === '' ? page : path.posix.normalize(path.posix.join(path.posix.dirname(page), target));
      if (!existsSync(path.join(root, file))) {
        broken.push(`${link}: no file ${file}`);
        continue;
      }
      if (fragment === undefined) continue;
      if (!file.endsWith('.md') || statSync(path.join(root, file)).isDirectory()) {
        broken.push(`${link}: an anchor into ${file}, which has no headings`);
        continue;
      }
      if (!githubSlugs(read(file)).has(decodeURIComponent(fragment))) broken.push(`${link}: no heading #${fragment} in ${file}`);
    }
    expect(broken).toEqual([]);
  });

  it('docs/README.md links every page of docs/', () => {
    const linked = markdownLinks(read('docs/README.md')).map((l) => path.posix.normalize(path.posix.join('docs', l.split('#')[0] ?? '')));
    const index = new Set(linked);
    expect(docs.filter((d) => d !== 'docs/README.md' && !index.has(d))).toEqual([]);
  });

  it('README.md stays short and leads to the manual', () => {
    expect(read('README.md').split('\n').length).toBeLessThanOrEqual(200);
    expect(markdownLinks(read('README.md'))).toContain('docs/README.md');
  });
});

describe('markdownLinks and githubSlugs', () => {
  it('finds inline links outside code, and slugs headings as GitHub does', () => {
    const lines = ['# Tfserv — `servapi.dev-state.com/v1alpha1`', '', 'See [a](x.md#b) and `[not](y.md)`.', ''];
    const text = [...lines, '```sh', '[no](z.md)', '```', '', '## A', '', '## A', ''].join('\n');
    expect(markdownLinks(text)).toEqual(['x.md#b']);
    expect([...githubSlugs(text)]).toEqual(['tfserv--servapidev-statecomv1alpha1', 'a', 'a-1']);
  });
});
