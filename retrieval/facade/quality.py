"""The shared quality sets (``../shared/quality``) and their fixed split, for the answer harnesses."""
from retrieval.evaluation import gold_missing_warning
from retrieval.quality import PARTS, gold_places, in_part, quality_dir, read_rows

__all__ = ["PARTS", "gold_missing_warning", "gold_places", "in_part", "quality_dir", "read_rows"]
