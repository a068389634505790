"""C's integer types and their arithmetic (C11 §6.2.5, §6.3.1; lemmas C-I1, C-I2, C-I3): each
type's width and signedness by the data model (ILP32 or LP64), the integer promotions, the usual
arithmetic conversions, and a conversion as an IMP expression over mathematical integers.

A C value of type `T` is represented by the mathematical integer it denotes, which lies in
`T`'s range (C-I1). IMP's `%` is Python's (floor) remainder, so for a positive modulus `m`,
`e % m` lies in `[0, m)`: a conversion to an unsigned type of `N` bits is `e % 2^N` (C-I2,
C-I3), and to a signed one `(e + 2^(N-1)) % 2^N - 2^(N-1)` (GCC's choice, C-I2).
"""

from __future__ import annotations

from dataclasses import dataclass

from symcert.lang.syntax import AExpr, Add, Int, Mod, Sub


@dataclass(frozen=True, slots=True)
class IntType:
    """An integer type: its name, width in bits, signedness and conversion rank (C11
    §6.3.1.1: `_Bool` 0, `char` 1, `short` 2, `int` 3, `long` 4, `long long` 5)."""

    name: str
    bits: int
    signed: bool
    rank: int

    @property
    def lo(self) -> int:
        """The least value of the type (C-I1)."""
        return -(1 << (self.bits - 1)) if self.signed else 0

    @property
    def hi(self) -> int:
        """The greatest value of the type (C-I1)."""
        return (1 << (self.bits - 1)) - 1 if self.signed else (1 << self.bits) - 1

    @property
    def is_bool(self) -> bool:
        return self.rank == 0

    def contains(self, other: IntType) -> bool:
        """Whether every value of `other` is a value of this type."""
        return self.lo <= other.lo and other.hi <= self.hi

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True, slots=True)
class DataModel:
    """The widths of a data model (SV-COMP's `options.data_model`): ILP32 or LP64; `char` is
    signed and 8 bits, `short` 16, `int` 32 and `long long` 64 in both."""

    name: str
    long_bits: int

    def type_of(self, words: tuple[str, ...]) -> IntType | None:
        """The integer type a list of type specifiers names (`unsigned long int`), or None when
        they name no integer type (`float`, `void`)."""
        ws = [w for w in words if w not in ("signed", "unsigned", "int")] if words else []
        unsigned = "unsigned" in words
        base = " ".join(ws)
        if not words or any(w not in ("signed", "unsigned", "int", "char", "short", "long",
                                      "_Bool") for w in words):
            return None
        table = {"_Bool": ("_Bool", 1, 0), "char": ("char", 8, 1), "short": ("short", 16, 2),
                 "": ("int", 32, 3), "long": ("long", self.long_bits, 4),
                 "long long": ("long long", 64, 5)}
        if base not in table or (base == "_Bool" and len(words) > 1):
            return None
        name, bits, rank = table[base]
        if rank == 0:
            return BOOL
        signed = not unsigned
        if rank == 1 and "signed" in words:
            name = "signed char"
        return IntType(("unsigned " if unsigned else "") + name, bits, signed, rank)

    def named(self, name: str) -> IntType:
        """The type of a name such as `unsigned int` or `long` (`__VERIFIER_nondet_T`'s)."""
        found = self.type_of(tuple(name.split()))
        assert found is not None, name
        return found

    @property
    def size_t(self) -> IntType:
        return self.named("unsigned long")


BOOL = IntType("_Bool", 1, False, 0)
INT = IntType("int", 32, True, 3)
UINT = IntType("unsigned int", 32, False, 3)
ILP32 = DataModel("ILP32", 32)
LP64 = DataModel("LP64", 64)
DATA_MODELS = {"ILP32": ILP32, "LP64": LP64}


def promote(t: IntType) -> IntType:
    """The integer promotion (C11 §6.3.1.1 ¶2): a type of lower rank than `int` becomes `int`
    (every value of `_Bool`, `char` and `short` fits in `int` in both data models)."""
    return INT if t.rank < INT.rank else t


def usual(a: IntType, b: IntType) -> IntType:
    """The usual arithmetic conversions of two integer operands (C11 §6.3.1.8): both promoted;
    then the type of greater rank when their signedness agrees; else the unsigned one when its
    rank is not lower; else the signed one when it holds every value of the unsigned one; else
    the unsigned type of the signed one's rank."""
    a, b = promote(a), promote(b)
    if a == b:
        return a
    if a.signed == b.signed:
        return a if a.rank >= b.rank else b
    s, u = (a, b) if a.signed else (b, a)
    if u.rank >= s.rank:
        return u
    if s.contains(u):
        return s
    return IntType("unsigned " + s.name, s.bits, False, s.rank)


def wrap(e: AExpr, to: IntType) -> AExpr:
    """`e`, a mathematical integer, converted to `to` by reduction modulo `2^N` (C-I2, C-I3):
    into `[0, 2^N)` for an unsigned type, into `[-2^(N-1), 2^(N-1))` for a signed one (GCC's
    implementation-defined choice, C11 §6.3.1.3 ¶3). `_Bool` is not a wrap (`convert`)."""
    m = 1 << to.bits
    if isinstance(e, Int):
        v = e.value % m
        return Int(v - m if to.signed and v > to.hi else v, e.pos)
    if not to.signed:
        return Mod(e, Int(m), e.pos)
    half = 1 << (to.bits - 1)
    return Sub(Mod(Add(e, Int(half)), Int(m)), Int(half), e.pos)


def twos(value: int, t: IntType) -> int:
    """The value of type `t` whose two's-complement bits are those of `value` (for bitwise
    operators on constants)."""
    m = 1 << t.bits
    v = value % m
    return v - m if t.signed and v > t.hi else v
