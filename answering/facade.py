"""What other packages may use of answering (the allow-list in ``.importlinter`` names this module).

The answer routes themselves reach the project only through their routers
(``acehrag`` wires each ``api`` module); what is read here is what they stored.
"""
from answering.public.schemas import PublicChatIn
from answering.selectors import TraceView, answer_traces_by_message

__all__ = ["PublicChatIn", "TraceView", "answer_traces_by_message"]
