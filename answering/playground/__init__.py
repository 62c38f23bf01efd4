"""The prompt playground: /query/v2 with a candidate editorial prompt, publishing nothing (issue #8)."""
