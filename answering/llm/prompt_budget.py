"""How the agent's prompt was fitted into the model's window (seed: ``metadata.synthesis.prompt_budget``).

The agent records it as it builds the opening prompt and as search results
arrive; a ``context_budget_exhausted`` refusal stores it, so an operator can
see what did not fit and by how much.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass
class PromptBudget:
    context_window_tokens: int
    output_tokens: int                   # each round's output ceiling, kept free of input
    chars_per_token: float
    fixed_tokens: int = 0                # system prompt, history, tools and the question, before any evidence
    initial_passages: int = 0            # preloaded evidence offered to the opening prompt
    initial_source_chars: int = 0        # its text, without source labels or framing
    initial_passages_dropped: int = 0    # preloaded evidence left out to fit
    tool_passages_trimmed: int = 0       # search results left out of a tool reply to fit
    tool_results_dropped: int = 0        # tool replies none of whose passages fitted
    grounding_chars_used: int = 0        # evidence as recorded in the prompt, its framing (passage blocks) included

    @property
    def input_room_tokens(self) -> int:
        return self.context_window_tokens - self.output_tokens

    @property
    def grounding_char_limit(self) -> int:
        """Characters of evidence the opening prompt could hold beside its fixed parts."""
        return max(0, int((self.input_room_tokens - self.fixed_tokens) * self.chars_per_token))

    def tool_reply(self, *, offered: int, kept: int, chars: int) -> None:
        """A tool reply: ``kept`` of ``offered`` passages fitted, as ``chars`` of recorded evidence."""
        self.tool_passages_trimmed += offered - kept
        self.tool_results_dropped += 1 if offered and not kept else 0
        self.grounding_chars_used += chars

    def record(self) -> dict:
        return {
            "initial_passages": self.initial_passages,
            "initial_source_chars": self.initial_source_chars,
            "grounding_char_limit": self.grounding_char_limit,
            "grounding_chars_used": self.grounding_chars_used,
            "token_pool": {"context_window_tokens": self.context_window_tokens, "output_tokens": self.output_tokens,
                           "input_room_tokens": self.input_room_tokens, "fixed_tokens": self.fixed_tokens},
            "initial_passages_dropped": self.initial_passages_dropped,
            "tool_passages_trimmed": self.tool_passages_trimmed,
            "tool_results_dropped": self.tool_results_dropped,
        }
