"""`@record`: a frozen value class, as `@dataclass(frozen=True, slots=True)` makes it,
without the code dataclasses generate for each class.

Why it exists: for every frozen class, `dataclass()` writes the source of six methods
(`__init__`, `__repr__`, `__eq__`, `__hash__`, `__setattr__`, `__delattr__`) and compiles
it with `exec`, at every start: generated code is never cached in a .pyc. Building our 63
dataclasses cost 0.225 G of the daemon's 0.847 G instructions to its first frame, beside
0.417 G for a bare `import PIL.Image, luma.oled.device, gpiozero` (docs/PERFORMANCE.md,
"Value classes without generated code"). A record is still made by `dataclass()`, with
those methods turned off (`init=False, repr=False, eq=False`, and `slots=True`), which
compiles nothing; it then gets this module's methods, written once, compiled once into
this module's .pyc, and shared by every record. They read the class's field names and
defaults, worked out once when the class is decorated.

What stays as with `@dataclass(frozen=True, slots=True)`: arguments by position or
keyword, defaults, `TypeError` naming the class and the argument for a missing,
unexpected, repeated or surplus one, `__post_init__`, equality only with an instance of
the very same class (`NotImplemented` otherwise), the hash of the field values, the repr
(`Name(a=1, b='x')`, with the qualified name), `FrozenInstanceError` on assigning or
deleting, `__slots__`, `__match_args__`, and `dataclasses.fields`, `replace`, `asdict`
and `is_dataclass`. Type checkers see a frozen dataclass (`dataclass_transform`).

What it does not do (use `@dataclass` for such a class): `field(...)` options
(default_factory, init, repr, compare, kw_only; refused with a `TypeError`), `InitVar`
and `KW_ONLY`, methods of its own for the six above (refused), ordering, copy and pickle
(nothing copies or pickles a record), a recursive repr guard, and a dataclass subclass
of a record (its `__dataclass_params__.frozen` is False). Every record has a docstring
(refused without one): `dataclass()` would otherwise make one from
`inspect.signature`, a start-up cost of its own.

The shared methods are a little slower per call than generated ones (a keyword
construction by about half a microsecond): docs/PERFORMANCE.md has the figures.
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar, dataclass_transform

_T = TypeVar("_T")

_SHARED = ("__init__", "__repr__", "__eq__", "__hash__", "__setattr__", "__delattr__")


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
    made.__record_fields__ = tuple(field.name for field in fields)
    made.__record_defaults__ = {
        field.name: field.default for field in fields if field.default is not dataclasses.MISSING
    }
    made.__record_post_init__ = hasattr(made, "__post_init__")
    for shared, method in zip(_SHARED, (_init, _repr, _eq, _hash, _setattr, _delattr), strict=True):
        setattr(made, shared, method)
    return made


def _init(self: Any, *args: Any, **kwargs: Any) -> None:
    cls = type(self)
    names: tuple[str, ...] = cls.__record_fields__
    if len(args) > len(names):
        takes = f"{len(names)} positional argument{'' if len(names) == 1 else 's'}"
        given = f"{len(args)} {'was' if len(args) == 1 else 'were'} given"
        raise TypeError(f"{cls.__qualname__}() takes {takes} but {given}")
    for name, value in zip(names, args, strict=False):
        if name in kwargs:
            raise TypeError(f"{cls.__qualname__}() got multiple values for argument {name!r}")
        object.__setattr__(self, name, value)
    defaults: dict[str, Any] = cls.__record_defaults__
    for name in names[len(args) :]:
        if name in kwargs:
            object.__setattr__(self, name, kwargs.pop(name))
        elif name in defaults:
            object.__setattr__(self, name, defaults[name])
        else:
            _refuse_unexpected(cls, kwargs)
            missing = [
                repr(left)
                for left in names[names.index(name) :]
                if left not in kwargs and left not in defaults
            ]
            plural = "s" if len(missing) > 1 else ""
            raise TypeError(
                f"{cls.__qualname__}() missing required argument{plural} {', '.join(missing)}"
            )
    _refuse_unexpected(cls, kwargs)
    if cls.__record_post_init__:
        self.__post_init__()


def _refuse_unexpected(cls: type, kwargs: dict[str, Any]) -> None:
    """Raise for the first keyword that names no field; the fields' own keywords have been
    taken out of `kwargs` by then."""
    names: tuple[str, ...] = cls.__record_fields__  # type: ignore[attr-defined]
    for keyword in kwargs:
        if keyword not in names:
            raise TypeError(f"{cls.__qualname__}() got an unexpected keyword argument {keyword!r}")


def _values(self: Any) -> tuple[Any, ...]:
    return tuple([getattr(self, name) for name in type(self).__record_fields__])


def _repr(self: Any) -> str:
    fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in type(self).__record_fields__)
    return f"{type(self).__qualname__}({fields})"


def _eq(self: Any, other: object) -> bool:
    if other.__class__ is not self.__class__:
        return NotImplemented
    return _values(self) == _values(other)


def _hash(self: Any) -> int:
    return hash(_values(self))


def _setattr(self: Any, name: str, value: Any) -> None:
    raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")


def _delattr(self: Any, name: str) -> None:
    raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")
