/* Safe: C's division truncates toward zero, so for every n in [-1000, 1000],
   n / 2 + n % 2 == n - n / 2 and (n / 2) * 2 + n % 2 == n. */
extern int __VERIFIER_nondet_int(void);
extern void abort(void);
void reach_error(void) {}
void __VERIFIER_assert(int cond) { if (!cond) { ERROR: { reach_error(); abort(); } } }
int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < -1000 || n > 1000) return 0;
  int q = n / 2, r = n % 2;
  __VERIFIER_assert(q * 2 + r == n);
  __VERIFIER_assert(r == 0 || r == 1 || r == -1);
  __VERIFIER_assert(n >= 0 || r <= 0);
  return 0;
}
