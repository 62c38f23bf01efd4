"""Clients for OpenAI-compatible model servers (the model-backed answer path)."""
