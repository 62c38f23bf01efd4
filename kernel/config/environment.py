"""Read the settings from the environment once, through pydantic-settings.

``ACEH_RAG_`` prefix, ``__`` between a section and its field. Values are
stripped and a blank value counts as unset. Four documented names do not
follow the nesting and are renamed before reading (``RENAMED``). Every
failure is a ``ConfigError`` naming the variable, raised at start.
"""
from __future__ import annotations

import dataclasses
import os
import typing
from collections.abc import Iterator, Mapping

from cryptography.fernet import Fernet
from pydantic import Field, ValidationError, create_model
from pydantic_settings import BaseSettings, EnvSettingsSource, PydanticBaseSettingsSource, SettingsConfigDict

from kernel.config.livedata import LiveDataSettings
from kernel.config.sections import AppSettings
from kernel.config.types import PREFIX, ConfigError

# Documented name → the name of the field it sets.
RENAMED = {
    f"{PREFIX}API_DOCS_ENABLED": f"{PREFIX}API__DOCS_ENABLED",
    f"{PREFIX}AUTH__JWT_ISSUERS": f"{PREFIX}AUTH__JWT__ISSUERS",
    f"{PREFIX}AUTH__JWT_AUDIENCE": f"{PREFIX}AUTH__JWT__AUDIENCE",
    f"{PREFIX}AUTH__JWT_LEEWAY_SECONDS": f"{PREFIX}AUTH__JWT__LEEWAY_SECONDS",
}
# Fields whose value may be a secret: an error never quotes it.
SECRET_WORDS = ("key", "token", "url")


class _Environment(EnvSettingsSource):
    """``os.environ`` stripped, blanks dropped, documented names mapped onto the nesting."""

    def _load_env_vars(self) -> Mapping[str, str | None]:
        # Blank, or only commas (an empty list), is unset: the field keeps its default.
        values = {name: value.strip() for name, value in os.environ.items() if value.strip(" \t\n\r,")}
        for canonical in RENAMED.values():
            values.pop(canonical, None)       # only the documented spelling sets these
        for documented, canonical in RENAMED.items():
            if documented in values:
                values[canonical] = values.pop(documented)
        return {name.lower(): value for name, value in values.items()}


class _Base(BaseSettings):
    model_config = SettingsConfigDict(env_prefix=PREFIX, env_nested_delimiter="__", case_sensitive=False,
                                      extra="ignore")

    @classmethod
    def settings_customise_sources(cls, settings_cls, init_settings, env_settings, dotenv_settings,
                                   file_secret_settings) -> tuple[PydanticBaseSettingsSource, ...]:
        return (_Environment(settings_cls),)


def _fields(cls) -> dict:
    hints = typing.get_type_hints(cls, include_extras=True)
    fields = {}
    for item in dataclasses.fields(cls):
        default = (Field(default_factory=item.default_factory) if item.default_factory is not dataclasses.MISSING
                   else item.default)
        fields[item.name] = (hints[item.name], default)
    return fields


# The live-data sections sit at the top of the environment, under ``livedata`` in the object.
_LIVEDATA = tuple(item.name for item in dataclasses.fields(LiveDataSettings))
_Model = create_model("Environment", __base__=_Base,
                      **{name: spec for name, spec in _fields(AppSettings).items() if name != "livedata"},
                      **_fields(LiveDataSettings))


def _variable(loc: tuple) -> str:
    path = [str(part) for part in loc if not isinstance(part, int)]
    if path and path[0] in ("database_url", "celery_broker_url"):
        return path[0].upper()
    name = PREFIX + "__".join(path).upper()
    return {canonical: documented for documented, canonical in RENAMED.items()}.get(name, name)


def _config_error(exc: ValidationError) -> ConfigError:
    problems = []
    for error in exc.errors():
        name = _variable(error["loc"])
        secret = any(word in name.lower() for word in SECRET_WORDS)
        shown = "" if secret or isinstance(error.get("input"), dict) else f", got {error.get('input')!r}"
        problems.append(f"{name}: {error['msg']}{shown}")
    return ConfigError("; ".join(problems))


def _check(config: AppSettings) -> None:
    """Rules across fields."""
    p = PREFIX
    embedding, llm, db = config.embedding, config.llm, config.db
    if embedding.backend == "openai" and not (embedding.base_url and embedding.model):
        raise ConfigError(f"{p}EMBEDDING__BACKEND=openai needs {p}EMBEDDING__BASE_URL and {p}EMBEDDING__MODEL")
    if llm.base_url and not llm.model:
        raise ConfigError(f"{p}LLM__BASE_URL needs {p}MODEL (the model name the server serves)")
    for key in config.auth.key_encryption_keys:
        try:
            Fernet(key.encode())
        except ValueError:
            raise ConfigError(f"{p}AUTH__KEY_ENCRYPTION_KEYS: each key must be a Fernet key (32 url-safe "
                              "base64-encoded bytes, e.g. from cryptography's Fernet.generate_key())") from None
    if config.files.backend == "s3" and not config.files.bucket:
        raise ConfigError(f"{p}FILES__BACKEND=s3 needs {p}FILES__BUCKET")
    if db.pool_min > db.pool_max:
        raise ConfigError(f"{p}DB__POOL_MIN ({db.pool_min}) must not exceed {p}DB__POOL_MAX ({db.pool_max})")


def load_settings() -> AppSettings:
    """Read every setting from the environment; fail early on bad values."""
    try:
        model = _Model()
    except ValidationError as exc:
        raise _config_error(exc) from None
    values = {name: getattr(model, name) for name in type(model).model_fields}
    livedata = LiveDataSettings(**{name: values.pop(name) for name in _LIVEDATA})
    config = AppSettings(**values, livedata=livedata)
    _check(config)
    return config


def environment_variables() -> Iterator[str]:
    """Every variable the settings read, spelled as docs/configuration.md documents it."""
    documented = {canonical: name for name, canonical in RENAMED.items()}

    def walk(cls, path: tuple[str, ...]) -> Iterator[str]:
        hints = typing.get_type_hints(cls, include_extras=True)
        for item in dataclasses.fields(cls):
            kind = typing.get_origin(hints[item.name]) and typing.get_args(hints[item.name])[0]
            kind = kind or hints[item.name]
            if dataclasses.is_dataclass(kind) and kind is not LiveDataSettings:
                yield from walk(kind, path + (item.name,))
            elif kind is LiveDataSettings:
                yield from walk(kind, ())
            elif item.name in ("database_url", "celery_broker_url") and not path:
                yield item.name.upper()
            else:
                name = PREFIX + "__".join(path + (item.name,)).upper()
                yield documented.get(name, name)

    yield from walk(AppSettings, ())
