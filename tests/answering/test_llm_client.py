"""The chat-completions client against a scripted OpenAI-compatible server on loopback."""
import pytest

from answering.llm.client import ChatClient, ModelError
from tests.http_fakes import FakeModelServer


def reply(content=None, finish="stop", tool_calls=None):
    message = {"role": "assistant", "content": content}
    if tool_calls:
        message["tool_calls"] = tool_calls
    return 200, {"id": "x", "object": "chat.completion", "choices": [{"index": 0, "message": message, "finish_reason": finish}],
                 "usage": {"prompt_tokens": 10, "completion_tokens": 5}}


def test_a_tool_call_round_trip_is_parsed():
    script = [reply(tool_calls=[{"id": "call_a", "type": "function",
                                 "function": {"name": "search_documents", "arguments": "{\"query\": \"zakat\"}"}}], finish="tool_calls")]
    with FakeModelServer(lambda path, body: script.pop(0)) as fake:
        completion = ChatClient(base_url=fake.url, model="m").complete(
            [{"role": "user", "content": "apa itu zakat"}], tools=[{"type": "function", "function": {"name": "search_documents"}}])
    assert completion.finish_reason == "tool_calls"
    assert [(c.id, c.name, c.arguments) for c in completion.tool_calls] == [("call_a", "search_documents", {"query": "zakat"})]
    path, body = fake.requests[0]
    assert path == "/v1/chat/completions" and body["model"] == "m" and body["tools"]


def test_5xx_and_429_are_retried_then_succeed():
    script = [(503, {"error": "busy"}), (429, {"error": "slow down"}), reply("Jawaban.")]
    with FakeModelServer(lambda path, body: script.pop(0)) as fake:
        completion = ChatClient(base_url=fake.url, model="m", backoff_seconds=0.01).complete([{"role": "user", "content": "q"}])
    assert completion.content == "Jawaban." and len(fake.requests) == 3


def test_persistent_5xx_raises_a_model_error():
    with FakeModelServer(lambda path, body: (500, {"error": "down"})) as fake:
        with pytest.raises(ModelError) as info:
            ChatClient(base_url=fake.url, model="m", max_retries=1, backoff_seconds=0.01).complete([{"role": "user", "content": "q"}])
    assert info.value.status == 500 and len(fake.requests) == 2


def test_json_mode_and_length_stop_are_passed_through():
    with FakeModelServer(lambda path, body: reply("{\"a\": 1", finish="length")) as fake:
        completion = ChatClient(base_url=fake.url + "/v1", model="m").complete([{"role": "user", "content": "q"}], json_mode=True, max_tokens=5)
    assert completion.finish_reason == "length"
    assert fake.requests[0][1]["response_format"] == {"type": "json_object"} and fake.requests[0][1]["max_tokens"] == 5


def test_a_malformed_payload_is_a_model_error():
    with FakeModelServer(lambda path, body: (200, {"unexpected": True})) as fake:
        with pytest.raises(ModelError):
            ChatClient(base_url=fake.url, model="m").complete([{"role": "user", "content": "q"}])
