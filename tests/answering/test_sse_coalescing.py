"""A finished answer's frames leave in bounded batches: the same bytes in fewer writes."""
from answering.sse import coalesced, sse_frame


def test_small_frames_are_joined_into_one_write_with_the_same_bytes():
    frames = [sse_frame("citation", {"n": i}) for i in range(12)] + [sse_frame("done", {})]
    writes = list(coalesced(frames))
    assert writes == [b"".join(frames)]


def test_batches_stay_within_the_limit_and_a_larger_frame_goes_alone():
    small, large = b"x" * 40, b"y" * 250
    writes = list(coalesced([small, small, small, large, small, small], limit=100))
    assert writes == [small + small, small, large, small + small]
    assert b"".join(writes) == small * 3 + large + small * 2
    assert all(len(write) <= 100 for write in writes if write != large)


def test_nothing_in_nothing_out():
    assert list(coalesced([])) == []
