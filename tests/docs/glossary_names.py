#!/usr/bin/env python3
"""Checks docs/glossary.md against the code: every name in a face's row must
be in that face's sources. A name is checked by its parts: a CLI line by its
last word (`ldpgraph daemon train`: "train" in the CLI's sources), an HTTP
line by its path, a dotted or scoped name by each segment (`Client.result`:
"Client" and "result" in the Python package), a quoted string as written.

    glossary_names.py REPO_ROOT"""
import os
import re
import sys

FACES = {
    'C++': ['sdk/include', 'sdk/transport/include', 'daemon/src'],
    'C': ['sdk/include/ldpgraph/ldpgraph.h', 'sdk/transport/include/ldpgraph/ldpgraph_transport.h'],
    'Java': ['sdk/bindings/java/src/main'],
    'Python': ['daemon/bindings/python/ldpgraph'],
    'CLI': ['daemon/cli', 'cmake/LdpgraphInstall.cmake'],
    'HTTP': ['docs/openapi.yaml'],
}
HTTP_VERBS = {'GET', 'POST', 'PUT', 'DELETE'}


def read_face(root, paths):
    text = []
    for rel in paths:
        path = os.path.join(root, rel)
        files = [path] if os.path.isfile(path) else [
            os.path.join(d, n) for d, _, names in os.walk(path) for n in names]
        for name in files:
            if name.endswith(('.h', '.cc', '.java', '.py', '.yaml', '.cmake')):
                with open(name, encoding='utf-8', errors='replace') as f:
                    text.append(f.read())
    return '\n'.join(text)


def parts(face, name):
    words = name.split()
    if face == 'HTTP':
        return [w for w in words if w not in HTTP_VERBS]
    if face == 'CLI':
        word = words[-1]
        return [word.lstrip('-')]
    if name.startswith('"'):
        return [name]
    return [p for p in re.split(r'::|\.', name) if p]


def main():
    root = os.path.abspath(sys.argv[1])
    sources = {face: read_face(root, paths) for face, paths in FACES.items()}
    faults, checked = [], 0
    with open(os.path.join(root, 'docs', 'glossary.md'), encoding='utf-8') as f:
        for number, line in enumerate(f, 1):
            m = re.match(r'^\| (C\+\+|C|Java|Python|CLI|HTTP) \| (.*) \|\s*$', line)
            if not m:
                continue
            face, cell = m.groups()
            for name in re.findall(r'`([^`]+)`', cell):
                for part in parts(face, name):
                    checked += 1
                    if part not in sources[face]:
                        faults.append(f'docs/glossary.md:{number}: {face} name `{name}`: "{part}" is not in '
                                      f'{", ".join(FACES[face])}')
    for fault in faults:
        print(fault)
    print(f'glossary: {checked} names checked against their faces, {len(faults)} missing')
    return 1 if faults or checked == 0 else 0


if __name__ == '__main__':
    sys.exit(main())
