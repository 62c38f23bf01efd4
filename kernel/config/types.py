"""Value types of the settings: how one environment string becomes a field.

Each field's default is written once, on its section dataclass; the types here
add the parsing docs/configuration.md documents (comma lists, lower-cased choices,
minimums) and are read by pydantic-settings (``kernel.config.environment``).
"""
from __future__ import annotations

import json
import os
import re
from typing import Annotated, Any

from annotated_types import Ge
from pydantic import AfterValidator, BeforeValidator
from pydantic_settings import NoDecode

from kernel.partner_jwt import JwtKey, key_material_error

PREFIX = "ACEH_RAG_"


class ConfigError(RuntimeError):
    """A required or malformed setting; raised at start with a clear message."""


def _comma_items(value: Any) -> Any:
    """``a, b`` → ``("a", "b")``; a value of only commas is unset (``kernel.config.environment``)."""
    if isinstance(value, (str, int, float)):
        value = tuple(item.strip() for item in str(value).split(",") if item.strip())
    return value


def _lower(value: Any) -> Any:
    return value.lower() if isinstance(value, str) else value


def _no_trailing_slash(value: Any) -> Any:
    return value.rstrip("/") if isinstance(value, str) else value


def _http_urls(urls: tuple[str, ...]) -> tuple[str, ...]:
    urls = tuple(url.rstrip("/") for url in urls)
    for url in urls:
        if not url.startswith(("http://", "https://")):
            raise ValueError(f"entries must be http(s) URLs, got {url!r}")
    return urls


def _jwt_keys(value: Any) -> Any:
    """Partner JWT keys from a JSON array of objects (see docs/configuration.md).

    Each object has ``algorithm`` (HS256|RS256) and ``key`` (the shared secret,
    or the public key in PEM with ``\\n`` line breaks), and optionally
    ``name``, ``kid``, ``issuer``, ``audience``. Errors never quote a key.
    """
    if not isinstance(value, str):
        return value
    name = f"{PREFIX}AUTH__JWT_KEYS"
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


def _networks(value: tuple[str, ...]) -> tuple[str, ...]:
    """CIDRs (``10.20.0.0/16``, ``::1/128``) or single addresses; each normalised to its network."""
    import ipaddress

    try:
        return tuple(str(ipaddress.ip_network(item, strict=False)) for item in value)
    except ValueError as exc:
        raise ValueError(f"not a network in CIDR form: {exc}") from None


def _pg_memory(value: str) -> str:
    """``auto`` or a PostgreSQL memory size in whole kB, MB or GB (``512MB``, ``6GB``)."""
    value = value.strip()
    if value.lower() == "auto":
        return "auto"
    if not re.fullmatch(r"[1-9][0-9]*(kB|MB|GB)", value):
        raise ValueError(f"must be auto or a size such as 512MB or 6GB, got {value!r}")
    return value


CommaList = Annotated[tuple[str, ...], NoDecode, BeforeValidator(_comma_items)]
HttpUrls = Annotated[CommaList, AfterValidator(_http_urls)]
Networks = Annotated[CommaList, AfterValidator(_networks)]
Lower = Annotated[str, BeforeValidator(_lower)]
JwtKeys = Annotated[tuple[JwtKey, ...], NoDecode, BeforeValidator(_jwt_keys)]
BaseUrl = Annotated[str, AfterValidator(_no_trailing_slash)]
PgMemory = Annotated[str, AfterValidator(_pg_memory)]
AtLeast0 = Annotated[int, Ge(0)]
AtLeast1 = Annotated[int, Ge(1)]


def min_int(minimum: int):
    return Annotated[int, Ge(minimum)]


# --- Django's own variables (acehrag/settings.py), read without a section -----------------

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


def env_list(name: str) -> tuple[str, ...]:
    value = _raw(name)
    if value is None:
        return ()
    return tuple(item.strip() for item in value.split(",") if item.strip())
