"""Maximum-cardinality matching in a general graph (Edmonds' blossom algorithm).

Swiss pairing asks "can the entrants still left all be paired without a rematch?" at every
step. That is a perfect-matching question on the graph of allowed pairs, which is not
bipartite (anyone may meet anyone), so a plain augmenting-path search is not enough: odd
cycles ("blossoms") must be shrunk. This is the classic O(V^3) formulation (one breadth-first
search per exposed vertex, blossoms contracted by relabelling their base), small enough to
read and fast enough for a few hundred entrants.

Pure Python, no dependencies: vertices are any hashable values, a matching is a symmetric
dict ``{v: mate, mate: v}``.
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Mapping, Sequence

from companion.rules.said import N_

__all__ = ["matching_size", "maximum_matching"]


def matching_size(matching: Mapping[Hashable, Hashable]) -> int:
    """The number of pairs in a symmetric matching dict."""
    return len(matching) // 2


def maximum_matching(vertices: Sequence[Hashable],
                     neighbours: Mapping[Hashable, Collection[Hashable]],
                     start: Mapping[Hashable, Hashable] | None = None) -> dict:
    """A maximum matching of the graph induced by ``vertices``.

    ``neighbours`` maps a vertex to the vertices it may be paired with (symmetric; entries
    outside ``vertices`` are ignored). ``start`` is an optional matching to grow from (pairs
    leaving ``vertices`` are dropped): a nearly maximum start costs only a few searches.
    Vertices are tried in the given order and neighbours in ``vertices`` order, so the result
    is deterministic. Returns a symmetric dict ``{v: mate}``.
    """
    index = {v: i for i, v in enumerate(vertices)}
    if len(index) != len(vertices):
        raise ValueError(N_("Vertices must be different."))
    adj = []
    for v in vertices:
        near = {index[w] for w in neighbours.get(v, ()) if w in index and w != v}
        adj.append(sorted(near))
    mate = [-1] * len(vertices)
    for a, b in (start or {}).items():
        i, j = index.get(a), index.get(b)
        if i is not None and j is not None and start.get(b) == a and j in adj[i]:
            mate[i], mate[j] = j, i
    _greedy(adj, mate)
    # A vertex with no augmenting path never gets one later in the same graph (Edmonds),
    # so a single pass over the exposed vertices is enough.
    for root in range(len(vertices)):
        if mate[root] == -1:
            _augment(root, adj, mate)
    return {vertices[i]: vertices[m] for i, m in enumerate(mate) if m != -1}


def _greedy(adj: list[list[int]], mate: list[int]) -> None:
    """Pair exposed vertices with their first exposed neighbour: a cheap head start."""
    for v, near in enumerate(adj):
        if mate[v] == -1:
            for w in near:
                if mate[w] == -1:
                    mate[v], mate[w] = w, v
                    break


def _augment(root: int, adj: list[list[int]], mate: list[int]) -> bool:
    """Search an augmenting path from the exposed ``root``; flip it and return True if found.

    ``parent`` links odd (inner) vertices back along the alternating tree; ``base[v]`` is the
    base of the blossom holding v (v itself outside any blossom). An even (outer) vertex is
    the root or the mate of a vertex that has a parent.
    """
    n = len(adj)
    base = list(range(n))
    parent = [-1] * n
    queued = [False] * n
    queued[root] = True
    queue = [root]
    head = 0
    while head < len(queue):
        v = queue[head]
        head += 1
        for to in adj[v]:
            if base[v] == base[to] or mate[v] == to:
                continue
            if to == root or (mate[to] != -1 and parent[mate[to]] != -1):
                # Two even vertices meet: an odd cycle. Shrink it onto its base.
                top = _common_base(v, to, base, parent, mate)
                in_blossom = [False] * n
                _mark_path(v, top, to, base, parent, mate, in_blossom)
                _mark_path(to, top, v, base, parent, mate, in_blossom)
                for i in range(n):
                    if in_blossom[base[i]]:
                        base[i] = top
                        if not queued[i]:
                            queued[i] = True
                            queue.append(i)
            elif parent[to] == -1:
                parent[to] = v
                if mate[to] == -1:
                    _flip(to, parent, mate)
                    return True
                queued[mate[to]] = True
                queue.append(mate[to])
    return False


def _common_base(a: int, b: int, base: list[int], parent: list[int],
                 mate: list[int]) -> int:
    """The base of the lowest common ancestor of two even vertices in the alternating tree."""
    seen = [False] * len(base)
    while True:
        a = base[a]
        seen[a] = True
        if mate[a] == -1:
            break
        a = parent[mate[a]]
    while True:
        b = base[b]
        if seen[b]:
            return b
        b = parent[mate[b]]


def _mark_path(v: int, top: int, child: int, base: list[int], parent: list[int],
               mate: list[int], in_blossom: list[bool]) -> None:
    """Walk from v up to the blossom base, marking blossoms and re-linking parents."""
    while base[v] != top:
        in_blossom[base[v]] = in_blossom[base[mate[v]]] = True
        parent[v] = child
        child = mate[v]
        v = parent[mate[v]]


def _flip(end: int, parent: list[int], mate: list[int]) -> None:
    """Swap matched and unmatched edges along the augmenting path ending at ``end``."""
    while end != -1:
        before = parent[end]
        following = mate[before]
        mate[end], mate[before] = before, end
        end = following
