"""The shared kernel: what every app may import and that imports none of them.

Domain errors (``kernel.errors``) live here; the principal, strict schemas,
error bodies and typed configuration join them. Nothing in this package
imports a project app.
"""
