"""Dice chips: axe-core cannot judge text on small coloured chips, so the faces' contrast is
computed here from the stylesheet (WCAG 2.1 1.4.3: at least 4.5:1), and the die kinds must
differ by more than colour (1.4.1: a shape or a mark)."""

import re
from pathlib import Path

import pytest

CSS = (Path(__file__).resolve().parents[1] / "static" / "css" / "app.css").read_text()


def rule(selector: str) -> str:
    match = re.search(rf"(?m)^{re.escape(selector)} \{{([^}}]*)\}}", CSS)
    assert match, f"no rule for {selector} in app.css"
    return match.group(1)


def colour(selector: str, prop: str) -> str:
    match = re.search(rf"(?<![-\w]){prop}:\s*(#[0-9a-fA-F]{{6}})", rule(selector))
    assert match, f"{selector} has no {prop} as #rrggbb"
    return match.group(1)


def luminance(hex_colour: str) -> float:
    channels = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    high, low = sorted([luminance(a), luminance(b)], reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_the_old_wild_die_colours_fail_the_check():
    # The check itself: white on #ff6b6b was the audit's 2.78:1.
    assert round(contrast("#ffffff", "#ff6b6b"), 2) == 2.78


@pytest.mark.parametrize("selector", [".die", ".die.wild", ".die.cp"])
def test_every_die_face_has_at_least_4_5_to_1_contrast(selector):
    ratio = contrast(colour(selector, "color"), colour(selector, "background"))
    assert ratio >= 4.5, f"{selector}: {ratio:.2f}:1"


def test_the_wild_die_and_cp_dice_differ_by_shape_and_a_mark_not_only_hue():
    assert "border-radius: 50%" in rule(".die.wild")
    assert 'content: "W"' in rule(".die.wild::after")
    assert 'content: "CP"' in rule(".die.cp::after")
