"""The public chat widget: POST /api/public/rag/chat, the widget page and its embed script.

Visitors are anonymous: every answer goes through the shared ``AnswerPipeline``
with an unverified principal, so only unrestricted documents can be read.
"""
