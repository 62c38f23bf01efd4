"""Typed configuration: one frozen ``AppSettings`` read from the environment at start.

Django's settings hold it as ``settings.ACEH_RAG``; sections are reached as
``settings.ACEH_RAG.<section>.<field>``.
"""
from kernel.config.environment import RENAMED, environment_variables, load_settings
from kernel.config.livedata import BpsSettings, LiveDataSettings, OpenDataSettings, SqlSettings, WorkbookSettings
from kernel.config.sections import (
    BASE_DIR,
    EMBEDDING_BACKENDS,
    ApiSettings,
    AppSettings,
    AuthSettings,
    DbSettings,
    EmbeddingSettings,
    IngestionSettings,
    LegalRelationsSettings,
    LimitsSettings,
    LlmSettings,
    MemorySettings,
    MetricsSettings,
    ModelEndpoint,
    PlaygroundSettings,
    PublicChatSettings,
    RetrievalSettings,
    SynthesisSettings,
    TracingSettings,
)
from kernel.config.types import PREFIX, ConfigError, env_bool, env_list, env_str

__all__ = [
    "BASE_DIR", "EMBEDDING_BACKENDS", "PREFIX", "RENAMED", "ApiSettings", "AppSettings", "AuthSettings",
    "BpsSettings", "ConfigError", "DbSettings", "EmbeddingSettings", "IngestionSettings",
    "LegalRelationsSettings", "LimitsSettings", "LiveDataSettings", "LlmSettings", "MemorySettings",
    "MetricsSettings", "ModelEndpoint", "OpenDataSettings", "PlaygroundSettings", "PublicChatSettings",
    "RetrievalSettings", "SqlSettings", "SynthesisSettings", "TracingSettings", "WorkbookSettings",
    "env_bool", "env_list", "env_str", "environment_variables", "load_settings",
]
