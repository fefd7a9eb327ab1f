#!/usr/bin/env python3
"""Fails when the files of a tree include each other around a circle.

A module is a header with the source of the same name (x.h and x.cc are one
unit: the source may use what the header promises). Module A depends on B
when a file of A includes B's header. A circle is a set of modules each
reaching every other (a strongly connected component of two or more); the
folder layering (cmake/CheckLayering.cmake) rules out circles between
folders, this check those between the files of one folder.

    file_circles.py ROOT [--include-dir DIR]... [--strip PREFIX]...

Includes are resolved against ROOT and each --include-dir; only files under
ROOT count. --strip removes a path prefix from module names, so that the
SDK's include/ldpgraph/x.h and src/x.cc are one module."""
import argparse
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def module_name(path, root, strips):
    name = os.path.splitext(os.path.relpath(path, root))[0]
    for prefix in strips:
        if name.startswith(prefix):
            return name[len(prefix):]
    return name


def strongly_connected(graph):
    """Tarjan's algorithm, iterative (deep include chains need no recursion)."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, edges = work[-1]
            advanced = False
            for nxt in edges:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph.get(nxt, ())))))
                    advanced = True
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('root')
    parser.add_argument('--include-dir', action='append', default=[])
    parser.add_argument('--strip', action='append', default=[])
    args = parser.parse_args()
    root = os.path.abspath(args.root)
    search = [root] + [os.path.abspath(d) for d in args.include_dir]

    files = []
    for folder, _, names in os.walk(root):
        files += [os.path.join(folder, n) for n in names if n.endswith(('.h', '.cc'))]
    graph, edges_seen, why = {}, 0, {}
    for path in sorted(files):
        source = module_name(path, root, args.strip)
        graph.setdefault(source, set())
        with open(path, encoding='utf-8', errors='replace') as f:
            for line in f:
                m = INCLUDE.match(line)
                if not m:
                    continue
                for base in [os.path.dirname(path)] + search:
                    target = os.path.normpath(os.path.join(base, m.group(1)))
                    if os.path.isfile(target):
                        break
                else:
                    continue
                if not target.startswith(root + os.sep):
                    continue
                dest = module_name(target, root, args.strip)
                if dest != source:
                    graph[source].add(dest)
                    why.setdefault((source, dest), os.path.relpath(path, root) + ': "' + m.group(1) + '"')
                    edges_seen += 1

    circles = strongly_connected(graph)
    if circles:
        print(f'file circles: {len(circles)} in {args.root}')
        for members in circles:
            print('  circle of ' + ', '.join(members))
            inside = set(members)
            for (a, b), where in sorted(why.items()):
                if a in inside and b in inside:
                    print('    ' + where)
        return 1
    print(f'file circles: 0 among {len(graph)} modules and {edges_seen} includes in {args.root}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
