"""What other apps may use of memory (the allow-list in ``.importlinter`` names this module)."""
from memory.extraction import memory_claim_text, preferred_language
from memory.services import RecalledMemory, memory_learn_after_commit, memory_recall

__all__ = ["RecalledMemory", "memory_claim_text", "memory_learn_after_commit", "memory_recall", "preferred_language"]
