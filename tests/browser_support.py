"""Headless Chromium for the tests of HTML pages (the balance page, the dispute viewer).

Chromium and its driver come from the system packages (Debian: ``apt-get install chromium
chromium-driver``); selenium from the ``test`` extra. Tests that need a browser skip when
:func:`chromium_available` is false - except under CI (``CI=true``), where a missing browser is a
failure, so the browser tests can never be skipped there unnoticed (each test says so itself).
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

CHROMEDRIVER = Path("/usr/bin/chromedriver")
CHROMIUM_NAMES = ("chromium", "chromium-browser")
#: Switches that keep a headless run quiet, offline and independent of any user profile.
ARGUMENTS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync")


def _chromium() -> str | None:
    return next((found for name in CHROMIUM_NAMES if (found := shutil.which(name))), None)


def chromium_available() -> bool:
    """Whether Chromium, its driver and selenium are all installed."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return False
    return CHROMEDRIVER.exists() and _chromium() is not None


@contextmanager
def browser(width: int = 1280, height: int = 900) -> Iterator[Any]:
    """A headless Chromium driver with a fresh profile, closed (and its profile removed) after."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="hauntcheck-chromium-")
    options = webdriver.ChromeOptions()
    for argument in ARGUMENTS:
        options.add_argument(argument)
    options.add_argument(f"--user-data-dir={profile}")
    options.add_argument(f"--window-size={width},{height}")
    binary = _chromium()
    if binary is not None:
        options.binary_location = binary
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    try:
        driver.set_window_size(width, height)
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)
