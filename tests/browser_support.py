"""Headless Chromium for tests that drive a page in a real browser (selenium, Debian's chromium).

``chromium_available()`` says whether the browser, its driver and selenium are all here;
``browser()`` starts a fresh headless session (its own empty profile, no network services) and
always shuts it down. Tests skip without a browser, except under CI (``CI=true``), where a
missing browser is a failure: CI installs it (``.ci/run``).
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"


def chromium_available() -> bool:
    return (Path(CHROMIUM).exists() and Path(CHROMEDRIVER).exists()
            and importlib.util.find_spec("selenium") is not None)


def require_chromium() -> None:
    """Skip the calling test without a browser; under CI, fail it instead."""
    if chromium_available():
        return
    message = f"headless Chromium is needed ({CHROMIUM}, {CHROMEDRIVER} and the selenium package)"
    if os.environ.get("CI") == "true":
        pytest.fail(message + "; CI must install it (apt-get install chromium chromium-driver)")
    pytest.skip(message)


@contextmanager
def browser(width: int = 1280, height: int = 900) -> Iterator[Any]:
    """A headless Chromium driver with a window of the given size, closed afterwards."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="hauntcheck-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage", f"--user-data-dir={profile}", f"--window-size={width},{height}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    try:
        driver.set_window_size(width, height)
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)
