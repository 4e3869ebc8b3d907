"""`@record` behaves as `@dataclass(frozen=True, slots=True)` does (companion/records.py).

The expectations are written from what a frozen dataclass does (the Python documentation),
and one test sets a record beside a real frozen dataclass and compares them call by call.
"""

import copy
import dataclasses
import pickle
import subprocess
import sys
from typing import Any

import mypy.api
import pytest

from companion.records import record


@record
class Point:
    """A square of the quilt board."""

    x: int
    y: int = 0


@record
class Square:
    """A square with the same fields as `Point`, of another class."""

    x: int
    y: int = 0


@record
class Empty:
    """A record without fields."""


class Board:
    """Holds a nested record, to see its qualified name in the repr."""

    @record
    class Mark:
        """A labelled mark on the board."""

        label: str
        where: tuple[int, int]


@record
class Checked:
    """A record whose __post_init__ refuses a negative count."""

    count: int

    def __post_init__(self) -> None:
        if self.count < 0:
            raise ValueError(f"count {self.count} is negative")


def test_arguments_by_position_by_keyword_and_defaults():
    assert (Point(3, 4).x, Point(3, 4).y) == (3, 4)
    assert (Point(y=4, x=3).x, Point(y=4, x=3).y) == (3, 4)
    assert (Point(3).x, Point(3).y) == (3, 0)
    assert (Point(3, y=5).x, Point(3, y=5).y) == (3, 5)


def test_a_missing_argument_names_the_class_and_the_field():
    with pytest.raises(TypeError, match=r"^Point\(\) missing required argument 'x'$"):
        Point()
    with pytest.raises(TypeError, match=r"^Point\(\) missing required argument 'x'$"):
        Point(y=1)
    with pytest.raises(
        TypeError, match=r"^Board\.Mark\(\) missing required arguments 'label', 'where'$"
    ):
        Board.Mark()


def test_an_unexpected_keyword_is_named():
    with pytest.raises(TypeError, match=r"^Point\(\) got an unexpected keyword argument 'z'$"):
        Point(1, z=2)
    # Python names the unknown keyword before a missing argument, a typo's likely twin.
    with pytest.raises(TypeError, match=r"^Point\(\) got an unexpected keyword argument 'X'$"):
        Point(X=1)


def test_too_many_positional_arguments():
    with pytest.raises(TypeError, match=r"^Point\(\) takes 2 positional arguments but 3 were"):
        Point(1, 2, 3)
    with pytest.raises(TypeError, match=r"^Empty\(\) takes 0 positional arguments but 1 was"):
        Empty(1)


def test_an_argument_given_twice():
    with pytest.raises(TypeError, match=r"^Point\(\) got multiple values for argument 'x'$"):
        Point(1, x=2)


def test_post_init_runs_after_the_fields_are_set():
    assert Checked(2).count == 2
    with pytest.raises(ValueError, match="count -1 is negative"):
        Checked(-1)


def test_equal_only_to_the_same_class_with_equal_values():
    assert Point(1, 2) == Point(1, 2)
    assert Point(1, 2) != Point(1, 3)
    assert Point(1, 2) != Square(1, 2)
    assert Point(1, 2) != (1, 2)
    assert Point(1, 2).__eq__((1, 2)) is NotImplemented
    assert Empty() == Empty()


def test_the_hash_is_that_of_the_field_values():
    assert hash(Point(1, 2)) == hash((1, 2))
    assert hash(Empty()) == hash(())
    assert hash(Checked(5)) == hash((5,))
    assert len({Point(1, 2), Point(1, 2), Point(2, 1)}) == 2


def test_repr_as_a_dataclass_writes_it():
    assert repr(Point(1, 2)) == "Point(x=1, y=2)"
    assert repr(Board.Mark("a'b", (1, 2))) == 'Board.Mark(label="a\'b", where=(1, 2))'
    assert repr(Empty()) == "Empty()"


def test_assigning_or_deleting_a_field_raises_frozen_instance_error():
    point = Point(1, 2)
    with pytest.raises(dataclasses.FrozenInstanceError, match="cannot assign to field 'x'"):
        point.x = 5
    with pytest.raises(dataclasses.FrozenInstanceError, match="cannot delete field 'y'"):
        del point.y
    with pytest.raises(dataclasses.FrozenInstanceError):
        point.z = 5
    assert (point.x, point.y) == (1, 2)


def test_a_record_has_slots_and_no_instance_dict():
    assert Point.__slots__ == ("x", "y")
    assert not hasattr(Point(1), "__dict__")


def test_dataclasses_functions_see_a_dataclass():
    point = Point(1, 2)
    assert dataclasses.is_dataclass(point)
    assert [field.name for field in dataclasses.fields(Point)] == ["x", "y"]
    assert dataclasses.asdict(point) == {"x": 1, "y": 2}
    moved = dataclasses.replace(point, y=7)
    assert (moved, point) == (Point(1, 7), Point(1, 2))
    with pytest.raises(TypeError, match="'z'"):
        dataclasses.replace(point, z=1)


def test_copied_deep_copied_and_pickled_as_a_frozen_dataclass_is():
    # A frozen slotted dataclass is, by a __setstate__ of its own; a record, made anew
    # from its field values (copy would otherwise set each slot and be refused).
    mark = Board.Mark("start", (0, 0))
    for value in (Point(1, 2), Empty(), mark, (Point(3), [Square(4)])):
        for copied in (
            copy.copy(value),
            copy.deepcopy(value),
            pickle.loads(pickle.dumps(value, pickle.HIGHEST_PROTOCOL)),
        ):
            assert copied == value and repr(copied) == repr(value)
    assert type(pickle.loads(pickle.dumps(Checked(2)))) is Checked


def test_a_match_with_positional_patterns():
    match Point(1, 2):
        case Point(1, y):
            matched = y
        case _:
            matched = None
    assert matched == 2
    assert Point.__match_args__ == ("x", "y")


def test_refuses_a_field_with_options():
    with pytest.raises(TypeError, match=r"record .*Listed: items is a field\(\.\.\.\)"):

        @record
        class Listed:
            """Would need a default_factory."""

            items: list[int] = dataclasses.field(default_factory=list)


def test_refuses_a_class_without_a_docstring():
    with pytest.raises(TypeError, match=r"record .*Bare has no docstring"):

        @record
        class Bare:
            x: int


def test_refuses_a_method_it_would_replace():
    with pytest.raises(TypeError, match=r"record .*Shown defines __repr__"):

        @record
        class Shown:
            """Has a repr of its own."""

            x: int

            def __repr__(self) -> str:
                return "shown"


def test_refuses_slots_and_match_args_of_its_own():
    # Its own __slots__' descriptors became the fields' defaults: `Slotted()` was made.
    with pytest.raises(TypeError, match=r"record .*Slotted defines __slots__, which a record"):

        @record
        class Slotted:
            """Slots written by hand."""

            __slots__ = ("x",)
            x: int

    with pytest.raises(TypeError, match=r"record .*Matched defines __match_args__"):

        @record
        class Matched:
            """Its own order for a match, which the record replaced."""

            __match_args__ = ("y",)
            x: int
            y: int = 0


@record
class Span:
    """Two trailing defaults, to see each filled from its own default."""

    start: int
    end: int = 0
    step: int = 1


@dataclasses.dataclass(frozen=True, slots=True)
class SpanByDataclass:
    """The same fields as `Span`, made by dataclasses itself."""

    start: int
    end: int = 0
    step: int = 1


CALLS: list[tuple[tuple[Any, ...], dict[str, Any]]] = [
    ((1, 2, 3), {}),
    ((1, 2), {}),
    ((1,), {}),
    ((), {"start": 1, "end": 2, "step": 3}),
    ((), {"step": 3, "start": 1}),
    ((1,), {"step": 3}),
    ((1, 2), {"step": 3}),
    ((), {}),
    ((), {"end": 2}),
    ((1, 2, 3, 4), {}),
    ((1,), {"start": 2}),
    ((1,), {"stop": 2}),
    ((), {"start": [1], "end": None}),
]


@pytest.mark.parametrize(("args", "kwargs"), CALLS)
def test_a_call_does_what_it_does_to_a_frozen_dataclass(args, kwargs):
    def outcome(cls: type) -> Any:
        try:
            made = cls(*args, **kwargs)
        except TypeError:
            return TypeError
        fields = repr(made).removeprefix(cls.__name__)
        hashed = hash(made) if not isinstance(made.start, list) else None
        return fields, hashed, dataclasses.astuple(made), made == cls(*args, **kwargs)

    assert outcome(Span) == outcome(SpanByDataclass)


def test_mypy_checks_a_record_as_a_frozen_dataclass(tmp_path):
    program = (
        "from companion.records import record\n"
        "@record\n"
        "class Point:\n"
        "    '''A square.'''\n"
        "    x: int\n"
        "    y: int = 0\n"
        "point = Point(1, y=2)\n"
        "point.x = 3\n"  # line 8
        "Point()\n"  # line 9
        "Point(1, 2, 3)\n"  # line 10
        "Point('a')\n"  # line 11
    )
    report, _, status = mypy.api.run(
        ["--config-file", "", "--cache-dir", str(tmp_path), "--python-executable", sys.executable]
        + ["--no-error-summary", "-c", program]
    )
    lines = sorted(int(line.split(":")[1]) for line in report.splitlines() if "error:" in line)
    assert (status, lines) == (1, [8, 9, 10, 11])


def test_refuses_keyword_only_fields():
    with pytest.raises(TypeError, match=r"record .*Named has keyword-only fields"):

        @record
        class Named:
            """Its fields after KW_ONLY can only be given by keyword."""

            x: int
            _: dataclasses.KW_ONLY
            y: int = 0


def test_refuses_a_subclass():
    with pytest.raises(TypeError, match=r"Marked subclasses a record"):

        class Marked(Point):
            """Would add a field to a frozen, slotted record."""

    with pytest.raises(TypeError, match=r"Labelled subclasses a record"):

        @dataclasses.dataclass(frozen=True)
        class Labelled(Point):
            """A dataclass on top of a record."""


def test_refuses_base_classes():
    # A base's fields, methods and slots would be half taken: its annotations are not
    # read, and the class is made anew from its own namespace only.
    class Plain:
        """An ordinary class."""

    with pytest.raises(TypeError, match=r"record .*Derived has base classes"):

        @record
        class Derived(Plain):
            """A record on top of an ordinary class."""

            x: int


def test_refuses_a_class_variable_and_an_init_only_variable():
    # As text, as under `from __future__ import annotations`, and as the objects.
    for annotation, kind in (
        ("ClassVar[int]", "ClassVar"),
        ("typing.ClassVar[int]", "ClassVar"),
        (dataclasses.InitVar[int], "InitVar"),
        ("InitVar[int]", "InitVar"),
    ):
        with pytest.raises(TypeError, match=rf"record .*Counted has a {kind}, total"):

            @record
            class Counted:
                """Its total would not be a field."""

                __annotations__ = {"total": annotation}


def test_a_field_named_like_a_marker_is_an_ordinary_field():
    @record
    class Marked:
        """Fields whose types merely contain the markers' names."""

        note: "ClassVariant"  # noqa: F821 (never resolved)
        flag: "MyInitVarious"  # noqa: F821

    assert [field.name for field in dataclasses.fields(Marked)] == ["note", "flag"]


def test_refuses_what_a_frozen_dataclass_refuses():
    # A field without a default after one with a default, and a mutable default: both
    # raise for @dataclass(frozen=True, slots=True) too.
    with pytest.raises(TypeError, match=r"record .*Late: a field without a default follows"):

        @record
        class Late:
            """`y` has no default after `x` had one."""

            x: int = 0
            y: int

    with pytest.raises(ValueError, match=r"record .*Shared: the default of items is mutable"):

        @record
        class Shared:
            """One list for every instance."""

            items: list[int] = []  # noqa: RUF012


def test_every_module_imports_under_python_dash_oo():
    # `python -OO` (or PYTHONOPTIMIZE=2) strips docstrings: the docstring rule cannot hold
    # there, and must not stop the program from starting.
    program = (
        "import pkgutil, importlib, companion\n"
        "for module in pkgutil.walk_packages(companion.__path__, 'companion.'):\n"
        "    if not module.name.endswith('__main__'):\n"
        "        importlib.import_module(module.name)\n"
    )
    done = subprocess.run(
        [sys.executable, "-OO", "-c", program], capture_output=True, text=True, check=False
    )
    assert (done.returncode, done.stderr) == (0, "")


def test_copy_replace_of_python_3_13_makes_a_changed_record():
    # copy.replace(record, **changes) calls record.__replace__(**changes), as it does a
    # frozen dataclass's; on 3.11 and 3.12 the method is there, unused.
    point = Point(1, 2)
    moved = point.__replace__(y=7)
    assert (moved, point) == (Point(1, 7), Point(1, 2))
    if sys.version_info >= (3, 13):
        assert copy.replace(point, x=5) == Point(5, 2)  # type: ignore[attr-defined]
    with pytest.raises(TypeError, match="'z'"):
        point.__replace__(z=1)


def test_fields_are_described_as_a_frozen_dataclass_describes_them():
    made = {field.name: field for field in dataclasses.fields(Span)}
    real = {field.name: field for field in dataclasses.fields(SpanByDataclass)}
    assert made.keys() == real.keys()
    for name, field in made.items():
        for attribute in ("default", "type", "init", "repr", "hash", "compare", "kw_only"):
            assert getattr(field, attribute) == getattr(real[name], attribute), (name, attribute)
