"""Edmonds' maximum matching, the look-ahead of Swiss pairing, against brute force."""
from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.events.matching import matching_size, maximum_matching


def brute_force_size(n, edges):
    """The largest set of disjoint edges, by trying every subset from the largest down."""
    for size in range(n // 2, 0, -1):
        for chosen in itertools.combinations(edges, size):
            ends = [v for e in chosen for v in e]
            if len(set(ends)) == len(ends):
                return size
    return 0


def neighbours(n, edges):
    near = {v: set() for v in range(n)}
    for a, b in edges:
        near[a].add(b)
        near[b].add(a)
    return near


def check_matching(matching, near):
    for a, b in matching.items():
        assert matching[b] == a and b in near[a] and a != b


@st.composite
def graphs(draw, max_n=10):
    n = draw(st.integers(0, max_n))
    every = list(itertools.combinations(range(n), 2))
    edges = draw(st.lists(st.sampled_from(every), unique=True)) if every else []
    return n, edges


@settings(max_examples=300, deadline=None)
@given(graphs())
def test_maximum_matching_is_maximum(graph):
    n, edges = graph
    near = neighbours(n, edges)
    matching = maximum_matching(list(range(n)), near)
    check_matching(matching, near)
    assert matching_size(matching) == brute_force_size(n, edges)


@settings(max_examples=200, deadline=None)
@given(graphs(), st.data())
def test_warm_start_and_subsets(graph, data):
    n, edges = graph
    near = neighbours(n, edges)
    full = maximum_matching(list(range(n)), near)
    keep = data.draw(st.lists(st.sampled_from(range(n)), unique=True)) if n else []
    sub_edges = [e for e in edges if e[0] in keep and e[1] in keep]
    warm = maximum_matching(keep, near, full)
    check_matching(warm, near)
    assert set(warm) <= set(keep)
    assert matching_size(warm) == brute_force_size(n, sub_edges)


def test_blossoms():
    # A 5-cycle with a tail: the augmenting path has to go through the odd cycle.
    near = neighbours(7, [(0, 1), (1, 2), (2, 3), (3, 4), (4, 0), (0, 5), (3, 6)])
    assert matching_size(maximum_matching(list(range(7)), near)) == 3
    # Two triangles joined by an edge, plus pendants.
    near = neighbours(8, [(0, 1), (1, 2), (2, 0), (3, 4), (4, 5), (5, 3), (2, 3), (0, 6),
                          (5, 7)])
    assert matching_size(maximum_matching(list(range(8)), near)) == 4


def test_any_hashable_vertices_and_bad_start_pairs():
    near = {"a": {"b"}, "b": {"a", "c"}, "c": {"b"}}
    assert maximum_matching(["a", "b", "c"], near, start={"a": "c", "c": "a"}) in (
        {"a": "b", "b": "a"}, {"b": "c", "c": "b"})
