"""Artifacts: files an answer creates for its reader when the client offers them (``offer_artifacts``)."""
