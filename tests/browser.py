"""A real headless Chromium for the tests of the web page (Debian's chromium and
chromium-driver, through Selenium; nothing downloads a browser), and the few things every such
test does with it. ``make test`` installs them where it can; without them a module importing
this one is skipped, and says why.

A test module uses the ``browser`` fixture by importing it (and naming it in ``__all__``)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed")

from selenium.common.exceptions import (  # noqa: E402
    StaleElementReferenceException,
    WebDriverException,
)
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
DRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"

if not (Path(CHROMIUM).exists() and Path(DRIVER).exists()):
    pytest.skip(
        "Chromium and chromedriver are not installed (make chromium, or apt-get install "
        "chromium chromium-driver): the browser tests of the web page are skipped",
        allow_module_level=True,
    )


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in (
        "--headless=new",
        "--no-sandbox",
        "--disable-dev-shm-usage",
        "--window-size=1280,1000",
    ):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    try:
        driver = webdriver.Chrome(service=webdriver.ChromeService(DRIVER), options=options)
    except WebDriverException as error:
        pytest.skip(f"Chromium does not start here: {error.msg}")
    try:
        yield driver
    finally:
        driver.quit()


def wait(driver: Any, condition: Any, seconds: float = 40) -> Any:
    """``condition(driver)`` once it is true, asked every 50 ms; an element it read that the
    page replaced meanwhile (the board is drawn again as each answer comes) is asked again."""
    return WebDriverWait(
        driver, seconds, poll_frequency=0.05, ignored_exceptions=(StaleElementReferenceException,)
    ).until(condition)


def click(driver: Any, selector: str) -> None:
    """Click the element the CSS ``selector`` names, found again if the page drew it anew
    meanwhile (see :func:`wait`)."""

    def once(d: Any) -> bool:
        d.find_element(By.CSS_SELECTOR, selector).click()
        return True

    wait(driver, once)


def status(driver: Any) -> str:
    return str(driver.find_element(By.ID, "status").text)


def shown_error(driver: Any) -> Any:
    """The page's error box, once it shows."""
    return wait(
        driver,
        lambda d: (
            d.find_element(By.ID, "error")
            if d.find_element(By.ID, "error").is_displayed()
            else False
        ),
    )


def no_script_errors(driver: Any) -> None:
    log = driver.get_log("browser")  # an answer of 400 is logged as a network error: not ours
    errors = [e for e in log if e["level"] == "SEVERE" and e.get("source") != "network"]
    assert errors == [], errors
