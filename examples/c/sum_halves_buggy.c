/* Bug: the remainder of a negative n is negative in C (-7 % 2 == -1), not 1 as with a floor
   division; n = -1 (any odd negative n) reaches reach_error(). */
extern int __VERIFIER_nondet_int(void);
extern void abort(void);
void reach_error(void) {}
void __VERIFIER_assert(int cond) { if (!cond) { ERROR: { reach_error(); abort(); } } }
int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < -1000 || n > 1000) return 0;
  int r = n % 2;
  __VERIFIER_assert(r == 0 || r == 1);
  return 0;
}
