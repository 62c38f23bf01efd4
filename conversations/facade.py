"""What other apps may use of conversations (the allow-list in ``.importlinter`` names this module).

Ownership and the route family are decided here (``conversation_access_for_route``); reads return
frozen values or rows the caller already owns; the errors are the app's named domain errors. The staff
workbench reads the dashboard's figures and the exports here, and installs the admin transcript's answer reader.
"""
from conversations.figures import (
    AnswerFigures,
    MessageExport,
    answer_figures,
    cited_documents_top,
    messages_export,
    refused_questions,
)
from conversations.history_view import HISTORY_VIEW_KEY, history_view_metadata
from conversations.inspection import AnswerReader, answer_reader_install
from conversations.models import PUBLIC_OWNER_PREFIX
from conversations.schemas import ConversationSummary, conversation_summary
from conversations.selectors import (
    HistoryWindow,
    answer_excerpt_subquery,
    answer_question_subquery,
    conversation_container,
    exchange_source_passages,
    history_window,
    message_get_by_turn,
    message_source_citations,
)
from conversations.services import (
    ConversationNotFound,
    ConversationRouteConflict,
    ExchangeRecord,
    FeedbackTargetNotFound,
    conversation_access_for_route,
    conversation_create,
    conversation_mcp_selection_save,
    exchange_persist,
    feedback_record,
)

__all__ = [
    "AnswerFigures", "AnswerReader", "MessageExport", "PUBLIC_OWNER_PREFIX", "answer_figures", "answer_reader_install",
    "cited_documents_top", "messages_export", "refused_questions",
    "HISTORY_VIEW_KEY", "answer_excerpt_subquery", "answer_question_subquery", "ConversationNotFound", "ConversationRouteConflict", "ConversationSummary", "ExchangeRecord",
    "FeedbackTargetNotFound", "HistoryWindow", "conversation_access_for_route", "conversation_container",
    "conversation_create", "conversation_mcp_selection_save", "conversation_summary", "exchange_persist",
    "exchange_source_passages", "feedback_record", "history_view_metadata", "history_window", "message_get_by_turn",
    "message_source_citations",
]
