"""OpenData / SatuData figures from allow-listed CKAN portals (Action API).

``package_search`` with the question's terms, then ``datastore_search`` of
the best resource that has a DataStore table (``package_show`` refreshes a
package whose search result carries no resources). The read is grounded with
the dataset identity (title, organisation, resource, page URL) and the read time.
"""
from __future__ import annotations

import datetime as dt
import json
import re
from dataclasses import dataclass

from django.conf import settings

from livedata.http import PortalError, get_json
from livedata.reads import SourceIdentity, ToolRead, miss

TOOL = "opendata_search"
_WORD = re.compile(r"[^\W_]+", re.UNICODE)


@dataclass(frozen=True)
class Dataset:
    portal: str
    package: dict
    resource: dict
    fields: list[str]
    records: list[dict]
    total: int

    @property
    def identity(self) -> SourceIdentity:
        organisation = (self.package.get("organization") or {}).get("title") or "OpenData"
        title = self.package.get("title") or self.package.get("name") or "dataset"
        resource = self.resource.get("name") or self.resource.get("id")
        label = title if not resource or resource == title else f"{title} — {resource}"
        return SourceIdentity(
            title=label, name=organisation,
            source_id=f"ckan:{self.portal}/dataset/{self.package.get('name')}/resource/{self.resource.get('id')}",
            period=_period(self.package), url=f"{self.portal}/dataset/{self.package.get('name')}",
        )


def _period(package: dict) -> str | None:
    for extra in package.get("extras") or []:
        if str(extra.get("key", "")).lower() in ("tahun", "year", "periode", "temporal"):
            return str(extra.get("value"))
    years = re.findall(r"(?<!\d)(20\d\d|19\d\d)(?!\d)", package.get("title") or "")
    return years[-1] if years else None


def _action(portal: str, name: str, params: dict) -> dict:
    config = settings.ACEH_RAG.livedata.opendata
    payload = get_json(f"{portal}/api/3/action/{name}", params, timeout=config.timeout_seconds,
                       ttl=config.cache_ttl_seconds)
    if payload.get("success") is not True or "result" not in payload:
        message = (payload.get("error") or {}).get("message") or "success is not true"
        raise PortalError(f"{name} failed: {message}")
    return payload["result"]


def _overlap(terms: set[str], package: dict) -> int:
    text = " ".join([package.get("title") or "", package.get("notes") or "",
                     *(tag.get("name", "") for tag in package.get("tags") or [])])
    return len(terms & {w.lower() for w in _WORD.findall(text)})


def _datastore_resource(package: dict) -> dict | None:
    return next((r for r in package.get("resources") or [] if r.get("datastore_active")), None)


def dataset_read(portal: str, query: str, filters: dict | None = None) -> Dataset | None:
    """The best DataStore-backed dataset of one portal for ``query`` (None when none matches)."""
    config = settings.ACEH_RAG.livedata.opendata
    found = _action(portal, "package_search", {"q": query, "rows": 5})
    terms = {w.lower() for w in _WORD.findall(query)}
    for package in sorted(found.get("results") or [], key=lambda p: -_overlap(terms, p)):
        if _overlap(terms, package) == 0:
            break
        if not package.get("resources"):
            package = _action(portal, "package_show", {"id": package.get("id") or package.get("name")})
        resource = _datastore_resource(package)
        if resource is None:
            continue
        params = {"resource_id": resource["id"], "limit": config.max_records}
        if filters:
            params["filters"] = json.dumps(filters)
        data = _action(portal, "datastore_search", params)
        fields = [f["id"] for f in data.get("fields") or [] if f.get("id") != "_id"]
        return Dataset(portal=portal, package=package, resource=resource, fields=fields,
                       records=list(data.get("records") or []), total=int(data.get("total") or 0))
    return None


def records_text(dataset: Dataset, records: list[dict]) -> str:
    read_at = dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")
    head = f"# {dataset.identity.label} ({dataset.identity.name}; {len(records)} of {dataset.total} records, read {read_at})"
    lines = [" | ".join(f"{name}: {record.get(name)}" for name in dataset.fields) for record in records]
    return "\n".join([head, *lines])


def opendata_read(query: str, filters: dict | None = None, narrow=None) -> ToolRead:
    """Read the first portal that has a matching dataset; ``narrow(fields, records)`` keeps the rows asked about.

    A failing or timed-out portal gives an honest note (the next portal is
    tried); no matching dataset anywhere is a miss.
    """
    arguments = {"query": query, **({"filters": filters} if filters else {})}
    portals = settings.ACEH_RAG.livedata.opendata.portals
    if not portals:
        return miss(TOOL, arguments, "OpenData/SatuData portals are not configured (ACEH_RAG_OPENDATA__PORTALS)")
    notes = []
    for portal in portals:
        try:
            dataset = dataset_read(portal, query, filters)
        except PortalError as exc:
            notes.append(f"OpenData portal {portal} could not be read: {exc}")
            continue
        if dataset is None:
            notes.append(f"OpenData portal {portal} has no matching dataset")
            continue
        records = narrow(dataset.fields, dataset.records) if narrow else dataset.records[:20]
        if not records:
            notes.append(f"dataset {dataset.identity.label} has no record matching the question")
            continue
        return ToolRead(tool=TOOL, arguments=arguments, ok=True, text=records_text(dataset, records),
                        source=dataset.identity, rows=len(records))
    return miss(TOOL, arguments, "; ".join(notes) + "; answered from the documents instead")
