"""`@record`: a frozen value class, as `@dataclass(frozen=True, slots=True)` makes it,
without the code dataclasses generate for each class.

Why it exists: for every frozen class, `dataclass()` writes the source of six methods
(`__init__`, `__repr__`, `__eq__`, `__hash__`, `__setattr__`, `__delattr__`) and compiles
it with `exec`, at every start: generated code is never cached in a .pyc. Building our 63
dataclasses cost 0.225 G of the daemon's 0.846 G instructions to its first frame, beside
0.418 G for a bare `import PIL.Image, luma.oled.device, gpiozero`; with records, 0.044 G
of 0.664 G (docs/PERFORMANCE.md, "Value classes without generated code"). A record is
still made by `dataclass()`, with those methods turned off (`init=False, repr=False,
eq=False`, and `slots=True`), which compiles nothing; it then gets this module's
methods, written once, compiled once into this module's .pyc, and shared by every
record. They read the class's field names and defaults, worked out once when the class
is decorated.

What stays as with `@dataclass(frozen=True, slots=True)`: arguments by position or
keyword, defaults, `TypeError` naming the class and the argument for a missing,
unexpected, repeated or surplus one, `__post_init__`, equality only with an instance of
the very same class (`NotImplemented` otherwise), the hash of the field values, the repr
(`Name(a=1, b='x')`, with the qualified name), `FrozenInstanceError` on assigning or
deleting, `__slots__`, `__match_args__`, `copy`, `deepcopy` and `pickle` (made anew
from the field values by `__reduce__`, so `__post_init__` runs again), and
`dataclasses.fields`, `replace`, `asdict` and `is_dataclass`. Type checkers see a frozen
dataclass (`dataclass_transform`).

What it does not do (use `@dataclass` for such a class): `field(...)` options
(default_factory, init, repr, compare, kw_only; refused with a `TypeError`), `InitVar`
and `KW_ONLY`, methods of its own for the six above or `__reduce__` (refused),
ordering, a recursive repr guard, and a dataclass subclass of a record (its
`__dataclass_params__.frozen` is False). Every record has a docstring (refused without
one): `dataclass()` would otherwise make one from `inspect.signature`, a start-up cost of
its own.

The shared methods are slower per call than generated ones: about 0.4 µs more a
construction by position, 1.2 µs by keyword, 0.1 µs a comparison (docs/PERFORMANCE.md).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from operator import attrgetter
from typing import Any, TypeVar, dataclass_transform

_T = TypeVar("_T")

_SHARED = (
    "__init__",
    "__repr__",
    "__eq__",
    "__hash__",
    "__setattr__",
    "__delattr__",
    "__reduce__",
)


@dataclass_transform(frozen_default=True)
def record(cls: type[_T]) -> type[_T]:
    """Make `cls` a frozen, slotted dataclass with the shared methods of this module.

    >>> @record
    ... class Point:
    ...     '''A point on the board.'''
    ...     x: int
    ...     y: int = 0
    >>> Point(1), Point(1) == Point(x=1, y=0), Point(1) == (1, 0)
    (Point(x=1, y=0), True, False)
    """
    name = cls.__qualname__
    if not cls.__doc__:
        raise TypeError(f"record {name} has no docstring: say what the class is")
    for attribute, value in vars(cls).items():
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
    made: Any = dataclasses.dataclass(init=False, repr=False, eq=False, slots=True)(cls)
    fields = dataclasses.fields(made)
    if any(field.kw_only for field in fields):
        raise TypeError(f"record {name} has keyword-only fields; make the class a @dataclass")
    # What the shared methods read, worked out once. The defaults are those of the last
    # fields (dataclass() refuses a field without one after a field with one).
    names = tuple(field.name for field in fields)
    made.__record_fields__ = names
    made.__record_defaults__ = {
        field.name: field.default for field in fields if field.default is not dataclasses.MISSING
    }
    made.__record_default_tail__ = tuple(made.__record_defaults__.values())
    made.__record_values__ = _values_getter(names)
    made.__record_post_init__ = hasattr(made, "__post_init__")
    for shared, method in zip(
        _SHARED, (_init, _repr, _eq, _hash, _setattr, _delattr, _reduce), strict=True
    ):
        setattr(made, shared, method)
    return made


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


def _reduce(self: Any) -> tuple[type, tuple[Any, ...]]:
    # How copy and pickle make one anew: by its class from its field values. Without it
    # they set the slots one by one on a blank instance, which `_setattr` refuses (a
    # frozen dataclass has a __setstate__ of its own for that).
    cls: Any = type(self)
    return cls, cls.__record_values__(self)
