"""Reciprocal rank fusion, computed by hand."""
import uuid

from retrieval.search import reciprocal_rank_fusion

X, Y, Z, W = (uuid.UUID(int=i) for i in (1, 2, 3, 4))


def test_rrf_matches_a_hand_computed_example():
    fused = reciprocal_rank_fusion([([X, Y, Z], 1.0), ([Y, W], 1.0)], k=60)
    assert [chunk_id for chunk_id, _ in fused] == [Y, X, W, Z]
    scores = dict(fused)
    assert abs(scores[Y] - (1 / 62 + 1 / 61)) < 1e-12
    assert abs(scores[X] - 1 / 61) < 1e-12
    assert abs(scores[W] - 1 / 62) < 1e-12
    assert abs(scores[Z] - 1 / 63) < 1e-12


def test_rrf_weights_scale_a_leg():
    fused = reciprocal_rank_fusion([([X], 1.0), ([Y], 2.0)], k=60)
    assert [chunk_id for chunk_id, _ in fused] == [Y, X]


def test_rrf_ties_break_by_best_rank_then_id():
    # X and Y both sit at rank 1 of one list: equal score, equal best rank → id order.
    fused = reciprocal_rank_fusion([([Y], 1.0), ([X], 1.0)], k=60)
    assert [chunk_id for chunk_id, _ in fused] == [X, Y]
