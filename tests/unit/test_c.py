"""The C front end (lang/c): C's integer semantics on the translated program's concrete runs
(C-I1 to C-I4), undefined behaviour as its own failure (C-U1), the structured translation of
break, continue, switch and goto (C-T1), and refusals with a position."""

from __future__ import annotations

import pytest

from symcert.core.concrete import Cells, Ending, Env, run_to_end
from symcert.lang.c.program import CPos, failure_of
from symcert.lang.c.source import UnsupportedC, assert_statements, strip_gnu
from symcert.lang.c.translate import translate
from symcert.lang.c.types import ILP32, LP64, DataModel, usual, wrap
from symcert.lang.errors import ParseError
from symcert.lang.syntax import Int, Var


def final(src: str, model: DataModel = LP64, inputs: dict | None = None):
    """The final state of the concrete run of the translation of `src`."""
    p = translate(src, "t.c", model)
    env = Env.of({k: Cells.of(v) if isinstance(v, dict) else v for k, v in (inputs or {}).items()})
    end = run_to_end(env, p.main, 100_000)
    assert end is not None
    return end


def value(src: str, model: DataModel = LP64) -> int:
    """The value of the global `r` after `main()` of `src` (its declarations) ran."""
    end = final(src + "\nint main(void) { f(); return 0; }", model)
    assert end.ending is Ending.NORMAL, end.how()
    return end.env("r")


@pytest.mark.parametrize("expr, expected", [
    ("-7 / 2", -3), ("-7 % 2", -1), ("7 / -2", -3), ("7 % -2", 1), ("-7 / -2", 3),
    ("-7 % -2", -1), ("7 / 2", 3), ("-8 / 2", -4), ("0 / -5", 0),
])
def test_constant_division_truncates_toward_zero(expr, expected):
    """C-I4 on constants: `-7 / 2 == -3`, `-7 % 2 == -1`."""
    assert value(f"int r; void f(void) {{ r = {expr}; }}") == expected


@pytest.mark.parametrize("a, b", [(-7, 2), (7, -2), (-7, -2), (7, 2), (-8, 2), (-1, 3), (5, 7)])
def test_division_of_variables_truncates_toward_zero(a, b):
    """C-I4 through the emitted correction of IMP's floor division, on variables."""
    q = value(f"int r; void f(void) {{ int a = {a}; int b = {b}; r = a / b; }}")
    m = value(f"int r; void f(void) {{ int a = {a}; int b = {b}; r = a % b; }}")
    exact = abs(a) // abs(b) * (1 if (a < 0) == (b < 0) else -1)
    assert (q, m) == (exact, a - b * exact)


def test_unsigned_arithmetic_wraps():
    """C-I3: `0u - 1` is UINT_MAX, and unsigned multiplication wraps modulo 2^32."""
    assert value("unsigned int r; void f(void) { unsigned int u = 0; r = u - 1; }") == 2**32 - 1
    assert value("unsigned int r; void f(void) { unsigned int u = 65536; r = u * u + 3; }") == 3


def test_char_promotion_and_narrowing():
    """C-I2: `unsigned char` arithmetic is int arithmetic; storing reduces modulo 2^8, to a
    signed char into [-128, 128) (GCC's choice)."""
    assert value("int r; void f(void) { unsigned char c = 200; r = c + c; }") == 400
    assert value("int r; void f(void) { unsigned char c = 200; c = c + c; r = c; }") == 144
    assert value("int r; void f(void) { signed char c = 100; c = c + c; r = c; }") == -56


def test_usual_arithmetic_conversions():
    """C11 §6.3.1.8: int against unsigned int is unsigned; long against unsigned int is long
    in LP64 and unsigned long in ILP32."""
    assert value("int r; void f(void) { r = -1 < 0u; }") == 0
    assert value("int r; void f(void) { r = -1L < 0u; }", LP64) == 1
    assert value("int r; void f(void) { r = -1L < 0u; }", ILP32) == 0
    assert usual(LP64.named("int"), LP64.named("unsigned int")).name == "unsigned int"


def test_data_model_widths():
    """C-I1: `long` is 64 bits in LP64 and 32 in ILP32, so the same conversion differs."""
    src = "long r; void f(void) { unsigned long u = 0; u = u - 1; r = (long)(u / 2); }"
    assert value(src, LP64) == 2**63 - 1
    assert value(src, ILP32) == 2**31 - 1


def test_wrap_of_constants_and_terms():
    """C-I2's reduction: a constant is reduced at once, a term gets IMP's `%`."""
    assert wrap(Int(300), LP64.named("unsigned char")) == Int(44)
    assert wrap(Int(200), LP64.named("signed char")) == Int(-56)
    assert str(wrap(Var("x"), LP64.named("short"))) == "(x + 32768) % 65536 - 32768"
    assert str(wrap(Var("x"), LP64.named("unsigned short"))) == "x % 65536"


def test_shifts_and_masks():
    """`<<`, `>>` by constants (an arithmetic shift of a negative value floors, as GCC's) and
    `& (2^k - 1)` as a remainder."""
    assert value("int r; void f(void) { int x = 5; r = x << 3; }") == 40
    assert value("int r; void f(void) { int x = -9; r = x >> 1; }") == -5
    assert value("int r; void f(void) { int x = -9; r = x & 7; }") == -9 & 7
    assert value("int r; void f(void) { unsigned x = 5; r = (int)~x; }") == ~5


@pytest.mark.parametrize("body, what", [
    ("int x = 2147483647; x = x + 1;", "signed overflow in `x + 1`"),
    ("int x = -2147483647 - 1; int y = -1; x = x / y;", "signed overflow in `x / y`"),
    ("int a[3]; int i = 3; a[i] = 1;", "array index out of bounds in `a[i]`"),
    ("int x; int y = x + 1;", "read of an uninitialised variable in `x`"),
    ("int x = -1; x = x << 2;", "left shift of a negative value in `x << 2`"),
])
def test_undefined_behaviour_is_its_own_failure(body, what):
    """C-U1: a run that reaches undefined behaviour stops at a failure marked undefined, with
    what and where; it is not the property's violation."""
    end = final(f"int main(void) {{ {body} return 0; }}")
    assert end.ending is Ending.FAIL
    assert isinstance(end.where, CPos)
    assert failure_of(end.where) == (what, True)


def test_division_by_zero_fails_as_division_by_zero():
    """A zero divisor fails in IMP's own division: a bug of its own kind, not undefined."""
    end = final("int main(void) { int x = 1; int y = 0; x = x / y; return 0; }")
    assert end.ending is Ending.FAIL and failure_of(end.where) == ("", False)


def test_nondet_values_are_the_call_sites_cells():
    """C-I1: call k of `__VERIFIER_nondet_int()` at line L, column C (its name's) reads `nondet_L_C[k]`;
    a value outside the type's range is not a run (the assumption blocks it)."""
    src = ("extern int __VERIFIER_nondet_int(void); int r;\n"
           "int main(void) { int i; for (i = 0; i < 3; i++) r = r * 10 + __VERIFIER_nondet_int();"
           " return 0; }")
    assert final(src, inputs={"nondet_2_62": {0: 1, 1: 2, 2: 3}}).env("r") == 123
    big = final(src, inputs={"nondet_2_62": {0: 2**31}})
    assert big.ending is Ending.BLOCKED


def test_break_continue_switch_fall_through():
    """C-T1: break and continue through flags, switch with fall-through and default."""
    src = """int r;
    void f(void) { int i;
      for (i = 0; i < 10; i++) {
        if (i == 2) continue;
        switch (i) { case 0: r += 1; case 1: r += 10; break; case 5: break; default: r += 100; }
        if (i == 6) break;
      }
    }"""
    # i=0: 11, i=1: 10, i=3,4,6: 100 each, i=5: 0
    assert value(src) == 321


def test_do_while_and_nested_loops():
    src = """int r;
    void f(void) { int i = 0, j;
      do { for (j = 0; j < 3; j++) { if (j == i) continue; r++; } i++; } while (i < 3);
    }"""
    assert value(src) == 6


def test_recursion_and_return_conversion():
    src = """int r;
    unsigned char g(int n) { if (n == 0) return 1; return 2 * g(n - 1); }
    void f(void) { r = g(9); }"""
    assert value(src) == 0  # 512 reduced modulo 256


def test_goto_error_label_and_reach_error():
    """`goto ERROR` to a label whose statement ends the run is that statement."""
    src = """void reach_error(void) {}
    extern void abort(void);
    int main(void) { int x = 3; if (x == 3) goto ERROR; return 0;
      ERROR: { reach_error(); abort(); } }"""
    end = final(src)
    assert end.ending is Ending.FAIL
    assert failure_of(end.where) == ("reach_error() is called", False)


def test_abort_blocks():
    src = "extern void abort(void); void reach_error(void) {}\n" \
          "int main(void) { abort(); reach_error(); return 0; }"
    assert final(src).ending is Ending.BLOCKED


@pytest.mark.parametrize("src, what, line, column", [
    ("int main(void) { int *p = 0; return 0; }", "pointers", 1, 22),
    ("struct s { int a; }; int main(void) { struct s v; return 0; }", "structs and unions", 1, 48),
    ("int main(void) { double d = 1.0; return 0; }", "floating point", 1, 25),
    ("int main(void) { int x = 1; x = x << x; return 0; }", "a shift by an amount that is not a "
     "constant", 1, 33),
    ("int g[5000]; int main(void) { return 0; }", "a global array of more than 1,024 cells", 1,
     5),
    ("int main(void) { int x = 0; L: x++; if (x < 3) goto L; return 0; }", "`goto` other than", 1,
     48),
])
def test_unsupported_c_is_refused_at_its_place(src, what, line, column):
    with pytest.raises(UnsupportedC) as err:
        translate(src, "t.c", LP64)
    assert (err.value.line, err.value.column) == (line, column)
    assert what in err.value.message
    assert str(err.value).startswith(f"t.c:{line}:{column}: unsupported C: ")
    assert str(err.value).rstrip().endswith("^")


def test_syntax_error_is_a_parse_error_with_caret():
    with pytest.raises(ParseError) as err:
        translate("int main(void) { return 0 }", "t.c", LP64)
    assert err.value.line == 1 and "^" in str(err.value)


def test_gnu_extensions_are_blanked_in_place():
    text = "extern int f(int) __attribute__ ((__nothrow__ , __leaf__));\n__extension__ int x;"
    out = strip_gnu(text)
    assert out.splitlines()[0].replace(" ", "") == "externintf(int);"
    assert out.index(";") == text.index(";")
    assert len(out) == len(text) and out.splitlines()[1].strip() == "int x;"


def test_glibc_assert_statement_expression():
    """glibc's assert macro's statement expression becomes the conditional it means."""
    text = ('((void) sizeof ((x > 0) ? 1 : 0), ({ if (x > 0) ; else '
            '__assert_fail ("x > 0", "a.c", 3, __PRETTY_FUNCTION__); }));')
    assert "({" not in assert_statements(text)
    src = ("extern void __assert_fail(const char *, const char *, unsigned int, const char *);\n"
           "int main(void) { int x = 0; " + text + " return 0; }")
    end = final(src.replace("a.c", "t.c"), LP64)
    assert end.ending is Ending.FAIL
    assert failure_of(end.where) == ("__assert_fail() is called", False)


def test_array_parameters_of_inlined_functions_are_the_callers_arrays():
    """C passes an array by its address: the callee's writes are the caller's; an index past
    the caller's array is out of bounds (C-U1)."""
    src = """int r;
    void fill(int a[], int n, int v) { for (int i = 0; i < n; i++) a[i] = v + i; }
    int sum(int *a, int n) { int s = 0; for (int i = 0; i < n; i++) s += a[i]; return s; }
    int main(void) { int b[4]; fill(b, 4, 10); r = sum(b, 4); return 0; }"""
    assert final(src).env("r") == 46
    end = final(src.replace("fill(b, 4, 10)", "fill(b, 5, 10)"))
    assert failure_of(end.where) == ("array index out of bounds in `a[i]`", True)


def test_return_inside_loops_of_main_and_of_inlined_functions():
    """`return` in `main` and in an inlined function ends the loops around it (its flag)."""
    src = """int r;
    int first(int k) { for (int i = 0; i < 10; i++) { while (1) { if (i == k) return i * 10;
      break; } } return -1; }
    int main(void) { int i; r = first(3); for (i = 0; i < 5; i++) { if (i == 2) return 0;
      r = r + 1; } r = 999; return 0; }"""
    assert final(src).env("r") == 32


def test_recursive_functions_stay_procedures():
    src = """int r;
    int fib(int n) { if (n < 2) return n; return fib(n - 1) + fib(n - 2); }
    int main(void) { r = fib(10); return 0; }"""
    p = translate(src, "t.c", LP64)
    from symcert.lang.procedures import table_of
    assert set(table_of(p.main)) == {"fib"}
    assert run_to_end(Env(), p.main, 100_000).env("r") == 55


def test_c_names_never_meet_the_translations_own():
    """C variables named like IMP keywords, `result`, the translation's temporaries and flags
    or a nondet site keep their own values."""
    src = """int r; int __t1 = 5;
    int main(void) { int __done = 2, nondet_3_1 = 4, result = 1, then = 3;
      int __t2 = __t1 + __done; r = __t2 + nondet_3_1 + result + then; return 0; }"""
    assert final(src).env("r") == 15


def test_global_arrays_are_zero_initialised():
    """C11 §6.7.9 ¶10: a global array's cells are 0, or its initialiser's."""
    src = """int r; int g[2][3]; int h[4] = {5, 6};
    void put(int i) { g[1][i] = i + 1; }
    int main(void) { put(2); r = g[0][1] + g[1][2] * 10 + h[1] * 100 + h[3] * 1000; return 0; }"""
    assert final(src).env("r") == 630
