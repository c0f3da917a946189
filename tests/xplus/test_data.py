"""Data: a record holds the configuration and the score it was made with."""

from hypothesis import given
from hypothesis import strategies as st

from speckit.testing import covers, expect_equal

from .strategies import configs, scores


@covers("Data.Data", "Data.getConfiguration", "Data.getScore")
@given(config=configs, score=scores)
def test_a_record_returns_what_it_was_made_with(impl, config, score):
    record = impl.data.Data(config, score)
    expect_equal(impl.data.getConfiguration(record), config, f"Data({config!r}, {score}).getConfiguration()")
    expect_equal(impl.data.getScore(record), score, f"Data({config!r}, {score}).getScore()")


@covers("Data.Data", "Data.getConfiguration", "Data.getScore")
@given(first=st.tuples(configs, scores), second=st.tuples(configs, scores))
def test_records_are_independent_and_reading_changes_nothing(impl, first, second):
    a = impl.data.Data(*first)
    b = impl.data.Data(*second)
    for _ in range(2):
        expect_equal(
            (impl.data.getConfiguration(a), impl.data.getScore(a)),
            first,
            "a record is unchanged by making another and by being read",
        )
        expect_equal(
            (impl.data.getConfiguration(b), impl.data.getScore(b)),
            second,
            "the second record holds its own configuration and score",
        )
