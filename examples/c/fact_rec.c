/* Safe: a recursive factorial of a small nondet n, with unsigned long results. */
extern int __VERIFIER_nondet_int(void);
void reach_error(void) {}
unsigned long fact(int n) { if (n <= 1) return 1; return n * fact(n - 1); }
int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 6) return 0;
  unsigned long f = fact(n);
  if (n == 5 && f != 120) reach_error();
  if (f == 0) reach_error();
  return 0;
}
