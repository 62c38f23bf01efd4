"""Security schemes: the API key, the partner JWT and the X-User-* identity headers."""
from __future__ import annotations

from django.conf import settings

IDENTITY_HEADERS = {
    "UserSubject": ("X-User-Subject", "Stable authenticated user subject; owns conversations and memories."),
    "UserRole": ("X-User-Role", "Role (default user); admin with a verified identity sees every document."),
    "UserUnit": ("X-User-Unit", "Organisation unit, for documents restricted to one unit."),
    "UserLevel": ("X-User-Level", "Integer position level, for documents with a minimum level."),
}
KEY_SCHEMES = ("ApiKeyAuth", "VerifiedAdminAuth")


def security_schemes() -> dict:
    header = settings.ACEH_RAG.api.key_header
    schemes = {
        "ApiKeyAuth": {
            "type": "apiKey", "in": "header", "name": header,
            "description": "The partner's server-side API key (never ship it to a browser). Missing or wrong: "
                           '401 {"detail": "Invalid or missing API key"}.',
        },
        "PartnerJWT": {
            "type": "http", "scheme": "bearer", "bearerFormat": "JWT",
            "description": "Optional verified identity: a token signed with the partner's HS256 secret or RS256 key "
                           "(ACEH_RAG_AUTH__JWT_KEYS or the admin). Claims sub (required), role, unit, level, exp "
                           "(required); iss/aud when configured. Wins over X-User-* headers. Invalid: "
                           '401 {"detail": "Invalid bearer token: <reason>"}.',
        },
    }
    for name, (header_name, meaning) in IDENTITY_HEADERS.items():
        schemes[name] = {
            "type": "apiKey", "in": "header", "name": header_name,
            "description": f"{meaning} Set by the partner's backend or gateway, never by end users; verified while "
                           "ACEH_RAG_AUTH__TRUST_IDENTITY_HEADERS=true.",
        }
    return schemes


def requirement_alternatives() -> list[dict]:
    """The key alone, the key with a JWT, or the key with identity headers (Swagger sends what is filled in)."""
    return [
        {"ApiKeyAuth": [], "PartnerJWT": []},
        {"ApiKeyAuth": [], **{name: [] for name in IDENTITY_HEADERS}},
        {"ApiKeyAuth": []},
    ]


def add_security(schema: dict) -> None:
    components = schema.setdefault("components", {})
    components["securitySchemes"] = security_schemes()
    for item in schema["paths"].values():
        for operation in item.values():
            names = {name for requirement in operation.get("security", []) for name in requirement}
            if names & set(KEY_SCHEMES):
                operation["security"] = requirement_alternatives()
