"""The typed settings read the documented variables, each default written once."""
import dataclasses

import pytest

from kernel.config import AppSettings, ConfigError, environment_variables, load_settings
from kernel.config.retrieval import FITTED


@pytest.fixture
def clean_env(monkeypatch):
    for name in list(environment_variables()):
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


def test_defaults_are_the_dataclass_defaults(clean_env):
    assert load_settings() == AppSettings()


def test_nested_variables_set_their_fields(clean_env):
    clean_env.setenv("ACEH_RAG_RETRIEVAL__RRF_K", " 7 ")
    clean_env.setenv("ACEH_RAG_API__KEYS", "a, b,")
    clean_env.setenv("ACEH_RAG_EMBEDDING__BACKEND", "HASHING")
    clean_env.setenv("ACEH_RAG_BPS__BASE_URL", "https://bps.example/api/")
    clean_env.setenv("ACEH_RAG_SQL__SCHEMAS", " , ")
    config = load_settings()
    assert config.retrieval.rrf_k == 7 and config.api.keys == ("a", "b")
    assert config.embedding.backend == "hashing"
    assert config.livedata.bps.base_url == "https://bps.example/api"
    assert config.livedata.sql.schemas == ("public",)


def test_documented_spellings_outside_the_nesting(clean_env):
    clean_env.setenv("ACEH_RAG_API_DOCS_ENABLED", "false")
    clean_env.setenv("ACEH_RAG_AUTH__JWT_LEEWAY_SECONDS", "5")
    config = load_settings()
    assert config.api.docs_enabled is False and config.auth.jwt.leeway_seconds == 5
    clean_env.delenv("ACEH_RAG_API_DOCS_ENABLED")
    clean_env.setenv("ACEH_RAG_API__DOCS_ENABLED", "false")   # not a documented name: ignored
    assert load_settings().api.docs_enabled is True


def test_blank_is_unset(clean_env):
    clean_env.setenv("ACEH_RAG_RETRIEVAL__RRF_K", "   ")
    assert load_settings().retrieval.rrf_k == AppSettings().retrieval.rrf_k


@pytest.mark.parametrize("name,value,message", [
    ("ACEH_RAG_RETRIEVAL__RRF_K", "0", "ACEH_RAG_RETRIEVAL__RRF_K: Input should be greater than or equal to 1"),
    ("ACEH_RAG_DB__POOL_MAX", "x", "ACEH_RAG_DB__POOL_MAX: Input should be a valid integer"),
    ("ACEH_RAG_EMBEDDING__ENGINE", "turbo", "ACEH_RAG_EMBEDDING__ENGINE"),
    ("ACEH_RAG_OPENDATA__PORTALS", "ftp://x", "must be http\\(s\\) URLs"),
    ("ACEH_RAG_AUTH__JWT_LEEWAY_SECONDS", "-1", "ACEH_RAG_AUTH__JWT_LEEWAY_SECONDS"),
    ("ACEH_RAG_LLM__BASE_URL", "http://llm", "needs"),
    ("ACEH_RAG_FILES__BACKEND", "s3", "ACEH_RAG_FILES__BACKEND=s3 needs ACEH_RAG_FILES__BUCKET"),
    ("ACEH_RAG_FILES__BACKEND", "ftp", "ACEH_RAG_FILES__BACKEND"),
])
def test_a_bad_value_fails_at_start_naming_the_variable(clean_env, name, value, message):
    clean_env.setenv(name, value)
    with pytest.raises(ConfigError, match=message):
        load_settings()


def test_a_secret_is_never_quoted(clean_env):
    clean_env.setenv("ACEH_RAG_METRICS__TOKEN", "s3cret")
    clean_env.setenv("ACEH_RAG_DB__POOL_MIN", "99")
    with pytest.raises(ConfigError) as info:
        load_settings()
    assert "s3cret" not in str(info.value)


def test_sections_stay_replaceable():
    config = AppSettings()
    changed = dataclasses.replace(config, retrieval=dataclasses.replace(config.retrieval, rrf_k=3))
    assert changed.retrieval.rrf_k == 3 and config.retrieval.rrf_k == FITTED["rrf_k"]
