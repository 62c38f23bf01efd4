"""A small client for the OpenAI-compatible chat-completions API.

Works with vLLM, Ollama, llama.cpp's server and hosted providers: one POST to
``{base_url}/v1/chat/completions`` with optional tools and JSON mode. 429 and
5xx answers are retried with exponential backoff (``Retry-After`` honoured);
any other failure raises ``ModelError`` so callers can name it (``model_failed``).
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any

import httpx

from kernel.connections import release_connection
from kernel.telemetry.tracing import inject_headers

RETRYABLE = {429, 500, 502, 503, 504}
INVALID_ARGUMENTS = "__invalid_arguments__"


class ModelError(RuntimeError):
    """The model dependency failed (``model_failed`` on the routes)."""

    def __init__(self, message: str, *, status: int | None = None, timeout: bool = False):
        super().__init__(message)
        self.status = status
        self.timeout = timeout


@dataclass(frozen=True)
class ToolCallRequest:
    id: str
    name: str
    arguments: dict[str, Any]


@dataclass(frozen=True)
class ChatCompletion:
    content: str | None
    finish_reason: str | None
    tool_calls: tuple[ToolCallRequest, ...] = ()
    usage: dict[str, Any] = field(default_factory=dict)


class ChatClient:
    def __init__(self, *, base_url: str, model: str, api_key: str | None = None, timeout: float = 60.0,
                 max_retries: int = 2, backoff_seconds: float = 0.5) -> None:
        root = base_url.rstrip("/")
        self.url = root + ("/chat/completions" if root.endswith("/v1") else "/v1/chat/completions")
        self.model = model
        self.timeout = timeout
        self.max_retries = max_retries
        self.backoff_seconds = backoff_seconds
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._http = httpx.Client(timeout=timeout, headers=headers)

    def complete(self, messages: list[dict], *, tools: list[dict] | None = None, json_mode: bool = False,
                 max_tokens: int | None = None, temperature: float = 0.0, timeout: float | None = None,
                 tool_choice: str | None = None) -> ChatCompletion:
        """``tool_choice="required"``: the round must call a tool (a forced tool round)."""
        body: dict[str, Any] = {"model": self.model, "messages": messages, "temperature": temperature}
        if tools:
            body["tools"] = tools
            if tool_choice:
                body["tool_choice"] = tool_choice
        if json_mode:
            body["response_format"] = {"type": "json_object"}
        if max_tokens:
            body["max_tokens"] = max_tokens
        payload = self._post(body, timeout)
        return self._parse(payload)

    def _post(self, body: dict, timeout: float | None) -> dict:
        attempt = 0
        while True:
            release_connection()  # a model call can take seconds: no pooled connection waits on it
            try:
                response = self._http.post(self.url, json=body, timeout=timeout or httpx.USE_CLIENT_DEFAULT,
                                           headers=inject_headers({}))
            except httpx.TimeoutException as exc:
                raise ModelError("model server timed out", timeout=True) from exc
            except httpx.HTTPError as exc:
                raise ModelError(f"model server unreachable: {exc}") from exc
            if response.status_code in RETRYABLE and attempt < self.max_retries:
                attempt += 1
                time.sleep(self._delay(response, attempt))
                continue
            if response.status_code >= 400:
                raise ModelError(f"model server answered {response.status_code}", status=response.status_code)
            try:
                return response.json()
            except ValueError as exc:
                raise ModelError("model server answered with invalid JSON") from exc

    def _delay(self, response: httpx.Response, attempt: int) -> float:
        retry_after = response.headers.get("Retry-After")
        if retry_after and retry_after.replace(".", "", 1).isdigit():
            return min(float(retry_after), 10.0)
        return self.backoff_seconds * (2 ** (attempt - 1))

    def close(self) -> None:
        self._http.close()

    @staticmethod
    def _parse(payload: dict) -> ChatCompletion:
        try:
            choice = payload["choices"][0]
            message = choice.get("message") or {}
            calls = []
            for call in message.get("tool_calls") or []:
                function = call["function"]
                calls.append(ToolCallRequest(
                    id=call.get("id") or f"call_{len(calls) + 1}", name=function["name"],
                    arguments=_tool_arguments(function.get("arguments")),
                ))
            return ChatCompletion(message.get("content"), choice.get("finish_reason"), tuple(calls), payload.get("usage") or {})
        except (KeyError, IndexError, TypeError, ValueError) as exc:
            raise ModelError(f"unexpected chat-completions payload: {exc}") from exc


def _tool_arguments(raw) -> dict[str, Any]:
    """Decoded arguments; malformed ones are kept for the tool to refuse, not a transport error."""
    if isinstance(raw, dict):
        return dict(raw)
    try:
        value = json.loads(raw or "{}")
    except (TypeError, ValueError):
        return {INVALID_ARGUMENTS: str(raw)}
    return value if isinstance(value, dict) else {INVALID_ARGUMENTS: str(raw)}


def client_for(endpoint, llm) -> ChatClient:
    """A client for one configured endpoint (agent, judge or guard)."""
    return ChatClient(base_url=endpoint.base_url, model=endpoint.model, api_key=endpoint.api_key,
                      timeout=llm.timeout_seconds, max_retries=llm.max_retries)
