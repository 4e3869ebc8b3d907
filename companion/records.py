"""`@record`: a frozen value class, as `@dataclass(frozen=True, slots=True)` makes it,
without the code dataclasses generate for each class.

Why it exists: for every frozen class, `dataclass()` writes the source of six methods
(`__init__`, `__repr__`, `__eq__`, `__hash__`, `__setattr__`, `__delattr__`) and compiles
it with `exec`, at every start: generated code is never cached in a .pyc. Building our 63
dataclasses cost 0.225 G of the daemon's 0.846 G instructions to its first frame, beside
0.418 G for a bare `import PIL.Image, luma.oled.device, gpiozero`; with records, 0.044 G
of 0.664 G (docs/PERFORMANCE.md, "Value classes without generated code"). A record
gets this module's methods instead, written once, compiled once into this module's .pyc
and shared by every record. They read the class's field names and defaults, worked out
once when the class is decorated. Nor does a record go through `dataclass()` at all:
its checks of every annotation and its second class for the slots cost 22 M of the
resumed daemon's 0.629 G instructions for our 56 records, against 5.6 M made here
(docs/PERFORMANCE.md). The class is made once more, with its slots, and given the
`dataclasses.Field`s that `dataclasses.fields`, `replace` and `asdict` read.

What stays as with `@dataclass(frozen=True, slots=True)`: arguments by position or
keyword, defaults, `TypeError` naming the class and the argument for a missing,
unexpected, repeated or surplus one, `__post_init__`, equality only with an instance of
the very same class (`NotImplemented` otherwise), the hash of the field values, the repr
(`Name(a=1, b='x')`, with the qualified name), `FrozenInstanceError` on assigning or
deleting, `__slots__`, `__match_args__`, `copy`, `deepcopy` and `pickle` (made anew
from the field values by `__reduce__`, so `__post_init__` runs again), and
`dataclasses.fields`, `replace`, `asdict` and `is_dataclass`, and Python 3.13's
`copy.replace`. Type checkers see a frozen
dataclass (`dataclass_transform`).

What it does not do (use `@dataclass` for such a class): `field(...)` options
(default_factory, init, repr, compare, kw_only), `ClassVar`, `InitVar` and `KW_ONLY`,
base classes, subclasses, methods of its own for the six above or `__reduce__`, and
`__slots__` or `__match_args__` of its own: each is refused with a `TypeError`. Nor
ordering or a recursive repr guard. As `dataclass()` does, it refuses a field without a
default after one with a default and a mutable default. Every record has a docstring
(refused without one, except under `python -OO`, which strips them all): say what the
class is.

The shared methods are slower per call than generated ones: about 0.4 µs more a
construction by position, 1.2 µs by keyword, 0.1 µs a comparison (docs/PERFORMANCE.md).
"""

from __future__ import annotations

import dataclasses
import inspect  # dataclasses imports it: free here
import re
import sys
from collections.abc import Callable
from operator import attrgetter
from typing import Any, TypeVar, dataclass_transform

_T = TypeVar("_T")


@dataclass_transform(frozen_default=True)
def record(cls: type[_T]) -> type[_T]:
    """Make `cls` a frozen, slotted value class with the shared methods of this module.

    >>> @record
    ... class Point:
    ...     '''A point on the board.'''
    ...     x: int
    ...     y: int = 0
    >>> Point(1), Point(1) == Point(x=1, y=0), Point(1) == (1, 0)
    (Point(x=1, y=0), True, False)
    """
    name = cls.__qualname__
    if not cls.__doc__ and sys.flags.optimize < 2:  # `python -OO` drops every docstring
        raise TypeError(f"record {name} has no docstring: say what the class is")
    if cls.__bases__ != (object,):
        raise TypeError(f"record {name} has base classes; make the class a @dataclass")
    namespace = dict(vars(cls))
    for attribute, value in namespace.items():
        if isinstance(value, dataclasses.Field):
            raise TypeError(
                f"record {name}: {attribute} is a field(...), which a record does not take;"
                " make the class a @dataclass"
            )
        if attribute in _SHARED:
            raise TypeError(
                f"record {name} defines {attribute}, which a record shares;"
                " make the class a @dataclass"
            )
        if attribute in _MADE:
            raise TypeError(
                f"record {name} defines {attribute}, which a record makes from its fields;"
                " make the class a @dataclass"
            )
    # As dataclasses reads them (from Python 3.14 a class keeps them unevaluated, not
    # in its namespace, unless its module has `from __future__ import annotations`).
    annotations: dict[str, Any] = inspect.get_annotations(cls)
    fields = {
        field_name: _field(name, field_name, annotation, namespace.pop(field_name, _MISSING))
        for field_name, annotation in annotations.items()
    }
    names = tuple(fields)
    defaults = {
        field.name: field.default for field in fields.values() if field.default is not _MISSING
    }
    if names[len(names) - len(defaults) :] != tuple(defaults):
        raise TypeError(f"record {name}: a field without a default follows one with a default")
    namespace.pop("__dict__", None)
    namespace.pop("__weakref__", None)
    namespace.update(
        __qualname__=name,
        __slots__=names,
        __match_args__=names,
        __dataclass_fields__=fields,
        __record_fields__=names,
        __record_defaults__=defaults,
        __record_default_tail__=tuple(defaults.values()),
        __record_values__=_values_getter(names),
        __record_post_init__="__post_init__" in namespace,
        **_SHARED,
    )
    # The class is made again, now with __slots__ (which only a new class can take), as
    # dataclass(slots=True) does, by the class's own metaclass.
    metaclass: Any = type(cls)
    made: type[_T] = metaclass(cls.__name__, cls.__bases__, namespace)
    return made


_MISSING: Any = dataclasses.MISSING

_MADE = frozenset({"__slots__", "__match_args__"})
"""What a record is given from its field names. A class's own would be lost: its
`__match_args__` replaced, its `__slots__`' descriptors taken as the fields' defaults
(`dataclass(slots=True)` refuses such a class too)."""

_NOT_TAKEN = r"\b(ClassVar|InitVar|KW_ONLY)\b"
"""Annotations that make something other than a field of a frozen dataclass: a class
variable, an init-only variable, the keyword-only marker. Under `from __future__ import
annotations` they are text, so they are recognised as text, as dataclasses does. Searched
for (compiled, and kept by `re`) only in an annotation holding one of the words, which no
record's does: every start decorates some sixty records."""


def _field(record_name: str, name: str, annotation: Any, default: Any) -> dataclasses.Field[Any]:
    """The `dataclasses.Field` that `dataclasses.fields`, `replace` and `asdict` read."""
    if isinstance(annotation, str):
        written = annotation
    else:  # dataclasses.KW_ONLY is an instance whose repr does not name it
        written = "KW_ONLY" if annotation is dataclasses.KW_ONLY else repr(annotation)
    if ("ClassVar" in written or "InitVar" in written or "KW_ONLY" in written) and (
        not_taken := re.search(_NOT_TAKEN, written)
    ):
        kind = not_taken[1]
        what = "keyword-only fields" if kind == "KW_ONLY" else f"a {kind}, {name}"
        raise TypeError(f"record {record_name} has {what}; make the class a @dataclass")
    if default.__class__.__hash__ is None:
        raise ValueError(
            f"record {record_name}: the default of {name} is mutable (a {type(default).__name__})"
        )
    field: dataclasses.Field[Any] = dataclasses.field(default=default, kw_only=False)
    field.name = name
    field.type = annotation
    # Which kind of field it is: dataclasses.fields() gives only those marked as ordinary
    # fields. Both names are private to dataclasses, the same from Python 3.7 to 3.13.
    field._field_type = dataclasses._FIELD  # type: ignore[attr-defined]
    return field


def _values_getter(names: tuple[str, ...]) -> Callable[[object], tuple[Any, ...]]:
    """A function giving an instance's field values as a tuple: an `attrgetter`, whose loop
    runs in C (four times faster than one in Python), where it gives a tuple."""
    if len(names) > 1:
        return attrgetter(*names)
    if names:
        value = attrgetter(names[0])
        return lambda instance: (value(instance),)
    return lambda instance: ()


_set = object.__setattr__
"""How a frozen instance sets its own fields, as dataclasses' generated `__init__` does."""


def _init(self: Any, *args: Any, **kwargs: Any) -> None:
    cls = type(self)
    names: tuple[str, ...] = cls.__record_fields__
    if kwargs or len(args) != len(names):
        args = _arguments(cls, args, kwargs)
    for name, value in zip(names, args, strict=False):  # _arguments gave one a field
        _set(self, name, value)
    if cls.__record_post_init__:
        self.__post_init__()


def _arguments(cls: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Any, ...]:
    """Every field's value in field order, from a call that did not give them all by
    position."""
    left = len(cls.__record_fields__) - len(args)
    if not kwargs and 0 < left <= len(cls.__record_default_tail__):
        return args + cls.__record_default_tail__[-left:]
    rest = cls.__record_fields__[len(args) :]
    if len(args) > len(cls.__record_fields__) or kwargs.keys() - rest:
        raise _refusal(cls, args, kwargs)
    defaults = cls.__record_defaults__
    try:
        return args + tuple([kwargs[name] if name in kwargs else defaults[name] for name in rest])
    except KeyError:
        raise _refusal(cls, args, kwargs) from None


def _refusal(cls: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> TypeError:
    """What is wrong with a call that does not fit the fields, worded as Python words it."""
    names: tuple[str, ...] = cls.__record_fields__
    called = f"{cls.__qualname__}()"
    if len(args) > len(names):
        takes = f"{len(names)} positional argument{'' if len(names) == 1 else 's'}"
        given = f"{len(args)} {'was' if len(args) == 1 else 'were'} given"
        return TypeError(f"{called} takes {takes} but {given}")
    for keyword in kwargs:
        if keyword in names[: len(args)]:
            return TypeError(f"{called} got multiple values for argument {keyword!r}")
        if keyword not in names:
            return TypeError(f"{called} got an unexpected keyword argument {keyword!r}")
    missing = [
        repr(name)
        for name in names[len(args) :]
        if name not in kwargs and name not in cls.__record_defaults__
    ]
    plural = "s" if len(missing) > 1 else ""
    return TypeError(f"{called} missing required argument{plural} {', '.join(missing)}")


def _repr(self: Any) -> str:
    fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in type(self).__record_fields__)
    return f"{type(self).__qualname__}({fields})"


def _eq(self: Any, other: object) -> bool:
    if other.__class__ is not self.__class__:
        return NotImplemented
    cls: Any = type(self)
    return cls.__record_values__(self) == cls.__record_values__(other)


def _hash(self: Any) -> int:
    cls: Any = type(self)
    return hash(cls.__record_values__(self))


def _setattr(self: Any, name: str, value: Any) -> None:
    raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")


def _delattr(self: Any, name: str) -> None:
    raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")


def _replace(self: Any, /, **changes: Any) -> Any:
    # What Python 3.13's copy.replace() calls; dataclasses gives frozen dataclasses one.
    return dataclasses.replace(self, **changes)


def _refuse_subclass(cls: type, **options: Any) -> None:
    raise TypeError(f"{cls.__qualname__} subclasses a record; make the record a @dataclass")


def _reduce(self: Any) -> tuple[type, tuple[Any, ...]]:
    # How copy and pickle make one anew: by its class from its field values. Without it
    # they set the slots one by one on a blank instance, which `_setattr` refuses (a
    # frozen dataclass has a __setstate__ of its own for that).
    cls: Any = type(self)
    return cls, cls.__record_values__(self)


_SHARED = {
    "__init__": _init,
    "__repr__": _repr,
    "__eq__": _eq,
    "__hash__": _hash,
    "__setattr__": _setattr,
    "__delattr__": _delattr,
    "__reduce__": _reduce,
    "__replace__": _replace,
    "__init_subclass__": _refuse_subclass,
}
"""The methods every record shares (a record may not define its own)."""
