"""BPS Statistics indicators from the allow-listed BPS WebAPI (``/v1/api/list/...``).

Enabled only with ``ACEH_RAG_BPS__ENABLED=true`` and an application key;
otherwise every read is a "not enabled" note and nothing is called. A
variable is found by keyword (``model/var/.../keyword/``), falling back to
the subject list (``model/subject``) and that subject's variables; its values
come from ``model/data``, whose ``datacontent`` keys concatenate the vertical
variable, variable, derived variable, year and derived period ids.
"""
from __future__ import annotations

import re
from itertools import product

from django.conf import settings

from livedata.http import PortalError, get_json
from livedata.reads import SourceIdentity, ToolRead, miss

TOOL = "bps_indicator"
_WORD = re.compile(r"[^\W_]+", re.UNICODE)


def _list(model: str, **path: str) -> dict:
    config = settings.ACEH_RAG.livedata.bps
    segments = "".join(f"/{name}/{value}" for name, value in path.items())
    url = f"{config.base_url}/list/model/{model}/lang/ind/domain/{config.domain}{segments}/key/{config.app_key}/"
    payload = get_json(url, None, timeout=config.timeout_seconds, ttl=config.cache_ttl_seconds)
    if payload.get("status") != "OK":
        raise PortalError(f"BPS {model} answered status {payload.get('status')!r}")
    return payload


def _items(payload: dict) -> list[dict]:
    """``data: [pagination, [items]]`` when available; [] for ``data-availability: list-not-available``."""
    data = payload.get("data")
    if payload.get("data-availability") != "available" or not isinstance(data, list) or len(data) < 2:
        return []
    return list(data[1] or [])


def _overlap(terms: set[str], text: str) -> int:
    return len(terms & {w.lower() for w in _WORD.findall(text or "")})


def _best(items: list[dict], terms: set[str], field: str) -> dict | None:
    scored = sorted(items, key=lambda item: -_overlap(terms, item.get(field, "")))
    return scored[0] if scored and _overlap(terms, scored[0].get(field, "")) else None


def _find_variable(query: str) -> dict | None:
    terms = {w.lower() for w in _WORD.findall(query)}
    keyword = " ".join(sorted(terms, key=len, reverse=True)[:3])
    variable = _best(_items(_list("var", keyword=keyword)), terms, "title")
    if variable:
        return variable
    subject = _best(_items(_list("subject")), terms, "title")
    if subject is None:
        return None
    return _best(_items(_list("var", subject=str(subject["sub_id"]))), terms, "title")


def data_rows(payload: dict) -> list[dict]:
    """Every value of a ``model/data`` answer with its region, derived variable and year labels."""
    var = (payload.get("var") or [{}])[0]
    content = payload.get("datacontent") or {}
    rows = []
    axes = [payload.get(name) or [{"val": 0, "label": ""}] for name in ("vervar", "turvar", "tahun", "turtahun")]
    for vervar, turvar, tahun, turtahun in product(*axes):
        key = f"{vervar['val']}{var.get('val', '')}{turvar['val']}{tahun['val']}{turtahun['val']}"
        if key in content:
            rows.append({"wilayah": vervar["label"], "variabel": var.get("label", ""),
                         "rincian": turvar["label"] if turvar["label"] not in ("", "Tidak Ada") else "",
                         "tahun": tahun["label"], "periode": turtahun["label"] if turtahun["val"] else "",
                         "nilai": content[key], "satuan": var.get("unit", "")})
    return rows


def bps_read(query: str, narrow=None) -> ToolRead:
    config = settings.ACEH_RAG.livedata.bps
    arguments = {"query": query}
    if not config.usable:
        return miss(TOOL, arguments, "BPS WebAPI is not enabled (ACEH_RAG_BPS__ENABLED and ACEH_RAG_BPS__APP_KEY)")
    try:
        variable = _find_variable(query)
        if variable is None:
            return miss(TOOL, arguments, "BPS has no matching indicator; answered from the documents instead")
        payload = _list("data", var=str(variable["var_id"]))
    except PortalError as exc:
        return miss(TOOL, arguments, f"BPS WebAPI could not be read: {exc}; answered from the documents instead")
    rows = data_rows(payload)
    rows = narrow(rows) if narrow else rows[:20]
    if not rows:
        return miss(TOOL, arguments, f"BPS indicator {variable.get('title')!r} has no value for the question")
    title = variable.get("title") or "BPS"
    years = sorted({row["tahun"] for row in rows})
    identity = SourceIdentity(
        title=title, name="BPS", source_id=f"bps:{config.domain}/var/{variable['var_id']}",
        period=", ".join(years) or None,
        # The data endpoint without the key segment: reproducible, and the key never leaves the server.
        url=f"{config.base_url}/list/model/data/lang/ind/domain/{config.domain}/var/{variable['var_id']}/",
    )
    lines = [" | ".join(f"{k}: {v}" for k, v in row.items() if v not in ("", None)) for row in rows]
    text = "\n".join([f"# {title} (BPS, domain {config.domain})", *lines])
    return ToolRead(tool=TOOL, arguments=arguments, ok=True, text=text, source=identity, rows=len(rows))
