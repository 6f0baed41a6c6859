"""What a use case says (services/wording.py): plain words, typed input said back bounded on one line, and the
people it names kept as people, so each medium (Slack, a terminal) can name them its own way."""
from __future__ import annotations

from services.errors import Denied, UserError
from services.wording import ECHO_LIMIT, Person, Words, echoed, either_of, joined, plain_words, words


def test_typed_input_is_said_back_on_one_line_and_bounded() -> None:
    flood = "<!channel>\n" * 6_000
    said = echoed(flood)
    assert len(said) == ECHO_LIMIT and said.endswith("…") and "\n" not in said
    assert said.startswith("<!channel> <!channel>")  # as typed: no medium's escaping here
    assert echoed("  Precinct\t 7 ") == "Precinct 7" and echoed(None) == "" and echoed("abcdef", 4) == "abc…"


def test_words_keep_people_apart_from_text() -> None:
    said = words("Approved by ", Person("U0OFFICIAL"), words(" (", "Tue", ")"), "")
    assert said == Words(("Approved by ", Person("U0OFFICIAL"), " (Tue)"))
    assert plain_words(said) == "Approved by U0OFFICIAL (Tue)"
    assert plain_words(words(Person(None), " decided")) == "someone decided"
    assert plain_words(joined(["a", Person("U1"), "b"], ", ")) == "a, U1, b"


def test_who_may_do_it_instead_names_five_and_counts_the_rest() -> None:
    assert plain_words(either_of(["U1"])) == "U1"
    assert plain_words(either_of(["U1", "U2", "U3"])) == "U1, U2 or U3"
    assert plain_words(either_of([f"U{i}" for i in range(1, 9)])) == "U1, U2, U3, U4, U5 and 3 more"
    assert sum(isinstance(p, Person) for p in either_of([f"U{i}" for i in range(1, 9)]).parts) == 5


def test_a_refusal_keeps_its_words_and_says_them_plainly() -> None:
    refused = Denied(words(Person("U0OFFICIAL"), " may decide it instead."), field="user")
    assert isinstance(refused, UserError) and refused.field == "user"
    assert refused.words.parts[0] == Person("U0OFFICIAL")
    assert refused.message == str(refused) == "U0OFFICIAL may decide it instead."
    assert UserError("Plain.").words == Words(("Plain.",))
