"""POST /v1/chat/stream: the agent route behind the public chat (seed: public-chat-sse-protocol,
"Agent route (internal)").

A partner's own web tier sits where the seed's ``apps/web`` sits: it keeps the API key on its server, forwards
the widget's body and relays the stream. Same body and same events as ``POST /api/public/rag/chat`` with
``stream: true`` (start, phase*, delta*, done | error | cancelled), the same anonymous visitor (unrestricted
documents only) and the same per-visitor limit; no Origin check and no per-address limit (one partner server
asks for all its visitors). When the caller goes away the answer is cancelled and nothing is stored (the
seed's ``request.is_disconnected()``: under ASGI Django cancels the response's generator on disconnect).
Errors before the stream starts are the API's JSON errors.
"""
from __future__ import annotations

from django.http import HttpRequest
from ninja import Router

from answering.public.config import public_chat_settings
from answering.public.schemas import PublicChatIn
from answering.public.turn import PublicChatRun
from answering.public.views import stream_response, visitor_turn
from kernel.schemas import ErrorOut

router = Router(tags=["public chat"])


@router.post("/v1/chat/stream", response={200: None, 400: ErrorOut, 404: ErrorOut, 429: ErrorOut, 503: ErrorOut},
             summary="The public chat's agent stream, for a partner's own web tier (API key)")
async def agent_chat_stream(request: HttpRequest, payload: PublicChatIn):
    config = public_chat_settings()
    run = PublicChatRun(await visitor_turn(payload, config, address=None))
    await run.prepare()
    return stream_response(run, config)
