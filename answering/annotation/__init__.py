"""annotate-v2: the agent's segments, their rendering with exact offsets, and the per-claim verdicts.

The /query/v2 composer (``answering.answer.annotated``) uses it; the route lives in ``answering.v2``.
"""
