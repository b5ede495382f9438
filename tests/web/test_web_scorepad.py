"""The score pad's web tests live with the screens they test (test_web_entries.py,
test_web_chrome.py…); this module holds what is the score pad's own: its Japanese tour."""
from __future__ import annotations

from japanese_tour import Step, Tour


# ---------------------------------------------------------------- its Japanese tour
# Every screen of the game in Japanese, after these taps (tests/web/test_web_japanese.py).

JAPANESE = Tour("scorepad", ["Ann", "Bob", "Cy"], table={"target": 50}, steps=[
    Step({"score_0": 10, "score_1": 5, "score_2": 0}),
    Step({"score_0": 250, "score_1": 7, "score_2": 0}, 422),   # "…would end the game…"
    Step({"score_0": 45, "score_1": 0, "score_2": 3}),   # Ann reaches 55: the game is over
])
