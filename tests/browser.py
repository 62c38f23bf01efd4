"""Headless Debian Chromium through Playwright, for the tests that look at pages.

Needs ``apt-get install -y chromium`` and Playwright for Python (``requirements/dev.txt``);
never ``playwright install``: the browser comes from the system. Screenshots land in
``test-output/`` for a human to look at.
"""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
OUTPUT = ROOT / "test-output"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture
def browser():
    if not Path(CHROMIUM).exists() and not shutil.which("chromium"):
        pytest.fail(f"Chromium is missing at {CHROMIUM}: install it with `apt-get install -y chromium`")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.fail("Playwright for Python is missing: `pip install -r requirements/dev.txt` (playwright); "
                    "do not run `playwright install`, the system Chromium is used")
    OUTPUT.mkdir(exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()
