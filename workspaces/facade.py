"""What other apps may use of workspaces (the allow-list in ``.importlinter`` names this module).

Which sources govern an answer, the corpus inventory, MCP calls, and the principal carrying its
subject's workspace memberships (what retrieval's access predicate reads for workspace uploads).
"""
from workspaces.inventory import asks_for_inventory, corpus_inventory
from workspaces.mcp_client import McpEndpoint, McpResult, McpUnavailable, mcp_tool_call, mcp_tool_schemas
from workspaces.selectors import principal_with_memberships
from workspaces.sources import AnswerSources, SourceSelectionEmpty, ViewerCannotAsk, answer_sources_resolve

__all__ = [
    "AnswerSources", "McpEndpoint", "McpResult", "McpUnavailable", "SourceSelectionEmpty", "ViewerCannotAsk",
    "answer_sources_resolve", "asks_for_inventory", "corpus_inventory", "mcp_tool_call", "mcp_tool_schemas",
    "principal_with_memberships",
]
