"""``fit_answerability --with-quality-dir DIR[:PART]``: a set may lend one part of its split to the fit and keep the
other held out."""
from pathlib import Path

import pytest

from answering.management.commands.fit_answerability import _quality_dir


@pytest.mark.parametrize("value, expected", [
    ("bench/fresh", (Path("bench/fresh"), "all")),
    ("bench/fresh2:train", (Path("bench/fresh2"), "train")),
    ("bench/fresh2:validation", (Path("bench/fresh2"), "validation")),
    ("bench/odd:name", (Path("bench/odd:name"), "all")),
])
def test_a_quality_directory_may_name_one_part_of_its_split(value, expected):
    assert _quality_dir(value) == expected


@pytest.mark.parametrize("argv, message", [
    (["--only", "bound"], "--only applies to the unit ranker"),
    (["--units", "--only", "loudness"], "no such signal: loudness"),
])
def test_fitting_one_signal_alone_is_refused_clearly_when_it_cannot_be_done(argv, message):
    from django.core.management import CommandError, call_command

    with pytest.raises(CommandError, match=message):
        call_command("fit_answerability", *argv)
