"""HashDictionary against a model: a Python dict in the test (the oracle, not the implementation).

Collisions are the implementation's business (its hash is its own, erratum X13); only
what holds for every hash function is checked: put returns 0 or 1, an empty table
never reports a collision, n records in m slots report at least n - m collisions, and
in a table of one slot every put reports one exactly while the table holds a record.
"""

from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.stateful import Bundle, RuleBasedStateMachine, initialize, invariant, rule, run_state_machine_as_test

import spec
from speckit.testing import covers, expect, expect_equal, obey

from . import paths
from .adapter import raises_dictionary_exception
from .model import BoardModel
from .strategies import configs, play_sequences, scores

XPLUS = spec.load("xplus")


class DictionaryMachine(RuleBasedStateMachine):
    """Random puts, gets and removes on one table of a random size, against a dict of the same records."""

    impl = None  # set by the test
    keys = Bundle("keys")

    def __init__(self):
        super().__init__()
        self.model: dict[str, int] = {}
        self.ops = self.impl.hash_dictionary
        self.table = None
        self.zeros = 0  # puts that found their slot empty, while nothing was removed
        self.removed = False

    @initialize(size=st.one_of(st.integers(1, 8), st.integers(9, 20000)), made_by_configurations=st.booleans())
    def make(self, size, made_by_configurations):
        """The table: HashDictionary(size), or createDictionary() of a board (whose size is unknown)."""
        self.board = self.impl.configurations.Configurations(3, 5, 1)
        self.board_model = BoardModel(3, 5)
        if made_by_configurations and size > 8:
            self.size = None
            self.table = self.impl.configurations.createDictionary(self.board)
        else:
            self.size = size
            self.table = self.ops.HashDictionary(size)

    @rule(target=keys, plays=play_sequences(3), score=st.integers(0, 3))
    def add_configuration(self, plays, score):
        """A record put by addConfiguration: the key is the board's configuration (erratum X04)."""
        model = self.board_model
        for row, col, symbol in plays:
            model.play(row, col, symbol)
            self.impl.configurations.savePlay(self.board, row, col, symbol)
        key = model.string()
        if key not in self.model:  # erratum X08: never add a configuration already stored
            self.impl.configurations.addConfiguration(self.board, self.table, score)
            self.model[key] = score
            self.removed = self.removed or self.size is None
        return key

    @rule(target=keys, key=configs, score=scores)
    def put_new(self, key, score):
        return self.put(key, score)

    @rule(key=keys, score=scores)
    def put_again(self, key, score):
        self.put(key, score)

    def put(self, key, score):
        record = self.impl.data.Data(key, score)
        if key in self.model:
            expect(
                raises_dictionary_exception(self.ops.put, self.table, record),
                f"put of a record whose configuration {key!r} is stored raises DictionaryException",
            )
            return key
        was_empty = not self.model
        result = self.ops.put(self.table, record)
        expect(result in (0, 1), f"put returns 0 or 1 (got {result!r})")
        if was_empty:
            expect_equal(result, 0, "put into an empty table reports no collision")
        if self.size == 1:
            expect_equal(
                result,
                0 if was_empty else 1,
                "in a table of size 1, put reports a collision exactly when the table holds a record",
            )
        self.zeros += result == 0
        if not self.removed and self.size is not None:
            expect(
                self.zeros <= self.size,
                f"at most {self.size} puts into a table of {self.size} slots find their slot empty",
                expected=f"<= {self.size}",
                actual=self.zeros,
            )
        self.model[key] = score
        return key

    @rule(key=st.one_of(keys, configs))
    def remove(self, key):
        if key not in self.model:
            expect(
                raises_dictionary_exception(self.ops.remove, self.table, key),
                f"remove({key!r}) of an absent configuration raises DictionaryException",
            )
            return
        self.ops.remove(self.table, key)
        del self.model[key]
        self.removed = True

    @rule(key=st.one_of(keys, configs))
    def get(self, key):
        expect_equal(
            self.ops.get(self.table, key), self.model.get(key, -1), f"get({key!r}): the stored score, or -1 when absent"
        )

    @invariant()
    def counts_and_contents(self):
        if self.table is None:
            return
        expect_equal(self.ops.numRecords(self.table), len(self.model), "numRecords is the number of records stored")
        found = self.impl.batch(lambda: {key: self.ops.get(self.table, key) for key in self.model})
        expect_equal(found, self.model, "every stored record is found with its score (nothing else changed)")


@covers(
    "HashDictionary.HashDictionary",
    "HashDictionary.put",
    "HashDictionary.remove",
    "HashDictionary.get",
    "HashDictionary.numRecords",
)
def test_the_dictionary_behaves_as_a_model_dictionary(impl):
    machine = type("DictionaryMachineOf", (DictionaryMachine,), {"impl": impl})
    run_state_machine_as_test(machine, settings=settings(settings(), stateful_step_count=30))


@covers("HashDictionary.HashDictionary", "HashDictionary.numRecords", "HashDictionary.get")
@given(size=st.integers(1, 10000), key=configs)
def test_a_new_dictionary_is_empty(impl, size, key):
    table = impl.hash_dictionary.HashDictionary(size)
    expect_equal(impl.hash_dictionary.numRecords(table), 0, f"HashDictionary({size}) is empty: numRecords")
    expect_equal(impl.hash_dictionary.get(table, key), -1, f"HashDictionary({size}) is empty: get({key!r}) is -1")


@covers("HashDictionary.put", "HashDictionary.HashDictionary")
@given(size=st.integers(1, 30), keys=st.lists(configs, unique=True, max_size=60))
def test_n_records_in_m_slots_report_at_least_n_minus_m_collisions(impl, size, keys):
    table = impl.hash_dictionary.HashDictionary(size)
    results = [impl.hash_dictionary.put(table, impl.data.Data(key, i)) for i, key in enumerate(keys)]
    expect(all(r in (0, 1) for r in results), "put returns 0 or 1", actual=results)
    expect(
        sum(results) >= len(keys) - size,
        f"{len(keys)} records put into {size} slots report at least {len(keys) - size} collisions",
        expected=f">= {len(keys) - size}",
        actual=sum(results),
    )
    if keys:
        expect_equal(results[0], 0, "the first put into an empty table reports no collision")


@covers("HashDictionary.put", "HashDictionary.get", "HashDictionary.numRecords")
def test_the_instructors_workload_is_stored_and_found(impl):
    """TestDict's keys: the decimal string of i repeated 32 times, in a table of 13441 slots (long keys)."""
    ops = impl.hash_dictionary
    table = ops.HashDictionary(13441)
    keys = [str(i) * 32 for i in range(0, 10000, 7)]
    impl.batch(lambda: [ops.put(table, impl.data.Data(key, i % 4)) for i, key in enumerate(keys)])
    expect_equal(ops.numRecords(table), len(keys), "numRecords after the puts")
    found = impl.batch(lambda: [ops.get(table, key) for key in keys])
    expect_equal(found, [i % 4 for i in range(len(keys))], "every key is found with its score")


@covers("HashDictionary.HashDictionary", "HashDictionary.put", "HashDictionary.remove", "HashDictionary.get")
def test_rule_XR1_the_hash_table_is_the_students_own(impl):
    obey(impl, XPLUS, "XR1")


@covers("HashDictionary.put", "HashDictionary.get", "HashDictionary.remove")
@given(size=st.one_of(st.integers(1, 3), st.just(9973)), n=st.integers(3, 8), symbol=st.sampled_from("XO"))
def test_configurations_differing_in_one_square_are_different_keys(impl, size, n, symbol):
    """The search's configurations differ from each other in a square or two, often the last ones."""
    ops = impl.hash_dictionary
    table = ops.HashDictionary(size)
    keys = [" " * i + symbol + " " * (n * n - i - 1) for i in range(n * n)] + [" " * (n * n)]
    for i, key in enumerate(keys):
        ops.put(table, impl.data.Data(key, i))
    found = impl.batch(lambda: [ops.get(table, key) for key in keys])
    expect_equal(
        found,
        list(range(len(keys))),
        f"{len(keys)} boards of {n} x {n} with one tile each (or none) are stored and found as different keys",
    )
    ops.remove(table, keys[-2])
    expect_equal(ops.get(table, keys[-2]), -1, "the removed board is gone")
    expect_equal(ops.get(table, keys[-1]), len(keys) - 1, "the board differing from it in one square is still there")


@covers("HashDictionary.HashDictionary", "HashDictionary.put", "HashDictionary.remove")
@given(size=st.integers(1, 8), first=configs, second=configs)
def test_a_table_emptied_by_remove_is_empty_again_for_put(impl, size, first, second):
    """Every record put is removed again: the next put finds an empty table, so it reports no collision."""
    ops = impl.hash_dictionary
    table = ops.HashDictionary(size)
    ops.put(table, impl.data.Data(first, 1))
    ops.remove(table, first)
    expect_equal(
        ops.put(table, impl.data.Data(second, 2)),
        0,
        f"put({second!r}) into a table of {size} slots whose one record ({first!r}) was removed: no collision",
    )


# Dictionaries from every path, and the frame rule (see ``paths``) --------------------------------


@covers(
    "HashDictionary.HashDictionary",
    "HashDictionary.put",
    "HashDictionary.remove",
    "HashDictionary.get",
    "HashDictionary.numRecords",
    "Configurations.createDictionary",
    "Configurations.addConfiguration",
)
@paths.few(2)
@given(first=paths.any_path("dictionary"), second=paths.any_path("dictionary"))
def test_get_and_num_records_see_the_records_of_a_dictionary_reached_by_any_path(impl, first, second):
    """Two dictionaries, each made by HashDictionary or createDictionary, then puts, removes (refused ones
    too) and addConfiguration: each holds exactly its own records."""
    made = [(path, paths.follow(impl, path)) for path in (first, second)]
    paths.check_models(impl, [("dictionary", m.value, m.model, repr(path)) for path, m in made])


@covers("HashDictionary.put")
@paths.few(2)
@given(case=paths.frame_cases("HashDictionary.put"))
def test_put_changes_its_own_dictionary_only(impl, case):
    """put adds its record to its dictionary (or, refused, changes nothing); the record and every other
    dictionary keep theirs."""
    paths.check_frame_case(impl, case)


@covers("HashDictionary.remove")
@paths.few(2)
@given(case=paths.frame_cases("HashDictionary.remove"))
def test_remove_changes_its_own_dictionary_only(impl, case):
    """remove takes its configuration out of its dictionary (or, refused, changes nothing); every other
    dictionary keeps its records."""
    paths.check_frame_case(impl, case)
