"""``create_artifact`` as an agent tool (/query with offer_artifacts): a private step (call, tool, ok and ms
only) that adds a file to the turn."""
from __future__ import annotations

from answering.answer.steps import StepRecorder, ToolRefused
from answering.artifacts.drafts import CREATE_ARTIFACT, ArtifactBox, ArtifactRefused, artifact_draft
from answering.llm.agent import ToolResult
from answering.llm.tools import ExternalTool


def artifact_tool(box: ArtifactBox, steps: StepRecorder) -> ExternalTool:
    def run(arguments: dict) -> ToolResult:
        reply = ""
        with steps.tool("create_artifact", arguments, private=True):
            try:
                draft = artifact_draft(arguments)
                box.add(draft)
            except ArtifactRefused as refused:
                reply = f"Error: {refused}"
                raise ToolRefused() from None
            reply = (f"Created the file \"{draft.title}\" ({draft.size} bytes). It is attached to your answer if "
                     "the answer is published. It is not a source: do not cite it.")
        return ToolResult(text=reply)
    return ExternalTool(CREATE_ARTIFACT, run)
