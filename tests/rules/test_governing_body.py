"""The governing body's name (C.R.S. 1-13.5-1306(1), (6)): once and whole, whatever the office typed."""
from rules.governing_body import governing_body_name


def test_a_body_that_names_its_local_government_is_kept_as_typed() -> None:
    assert governing_body_name("Board of Directors of the Pine Ridge  Metropolitan District",
                               "Pine Ridge Metropolitan District") == (
        "Board of Directors of the Pine Ridge Metropolitan District")
    assert governing_body_name("the governing body of Pine Ridge", "pine ridge") == "the governing body of Pine Ridge"


def test_a_body_without_its_local_government_gets_it_once() -> None:
    assert governing_body_name("Board of Directors", "Pine Ridge Metropolitan District") == (
        "Board of Directors of Pine Ridge Metropolitan District")


def test_no_body_typed_names_the_governing_body_of_the_government() -> None:
    assert governing_body_name("  ", "Pine Ridge") == "the governing body of Pine Ridge"
    assert governing_body_name(None, "") == "the governing body"
