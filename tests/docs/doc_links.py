#!/usr/bin/env python3
"""Checks the project's Markdown: every relative link names a file that
exists (and, with #anchor, a heading of that page), and every row of
docs/status.md links a page. Prints one line per fault; exit 1 on any.

    doc_links.py REPO_ROOT"""
import os
import re
import sys

LINK = re.compile(r'\[[^\]]*\]\(([^)\s]+)\)')


def slug(heading):
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r'[`*_]', '', heading.strip().lower())
    text = re.sub(r'[^\w\- ]', '', text)
    return text.replace(' ', '-')


def anchors(path):
    found, fenced = set(), False
    with open(path, encoding='utf-8') as f:
        for line in f:
            if line.startswith('```'):
                fenced = not fenced
            elif not fenced and line.startswith('#'):
                found.add(slug(line.lstrip('#')))
    return found


def main():
    root = os.path.abspath(sys.argv[1])
    pages = [os.path.join(root, 'README.md')]
    for folder, _, names in os.walk(os.path.join(root, 'docs')):
        pages += [os.path.join(folder, n) for n in names if n.endswith('.md')]
    faults, links = [], 0
    for page in sorted(pages):
        fenced = False
        with open(page, encoding='utf-8') as f:
            for number, line in enumerate(f, 1):
                if line.startswith('```'):
                    fenced = not fenced
                if fenced:
                    continue
                for target in LINK.findall(line):
                    if re.match(r'^[a-z]+:', target):
                        continue  # https:, mailto:
                    links += 1
                    path, _, anchor = target.partition('#')
                    dest = os.path.normpath(os.path.join(os.path.dirname(page), path)) if path else page
                    where = f'{os.path.relpath(page, root)}:{number}'
                    if not os.path.exists(dest):
                        faults.append(f'{where}: {target}: no such file')
                    elif anchor and dest.endswith('.md') and anchor not in anchors(dest):
                        faults.append(f'{where}: {target}: no heading "{anchor}" in {os.path.relpath(dest, root)}')
    status = os.path.join(root, 'docs', 'status.md')
    rows = 0
    with open(status, encoding='utf-8') as f:
        for number, line in enumerate(f, 1):
            if not line.startswith('|') or line.startswith('|---') or line.startswith('| part '):
                continue
            rows += 1
            if not any(t.partition('#')[0].endswith('.md') for t in LINK.findall(line)):
                faults.append(f'docs/status.md:{number}: the row links no page')
    for fault in faults:
        print(fault)
    print(f'doc_links: {links} links in {len(pages)} pages, {rows} status rows, {len(faults)} fault(s)')
    return 1 if faults else 0


if __name__ == '__main__':
    sys.exit(main())
