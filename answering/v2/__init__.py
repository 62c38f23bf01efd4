"""Query v2: the answer as segments, rendered with exact offsets and annotated with verdicts."""
