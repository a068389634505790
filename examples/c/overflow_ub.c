/* Undefined behaviour: x + 1 overflows when x is INT_MAX; symcert says undecided, with the
   place, and never calls this a bug of unreach-call nor safe. */
extern int __VERIFIER_nondet_int(void);
void reach_error(void) {}
int main(void) {
  int x = __VERIFIER_nondet_int();
  if (x > 0) {
    int y = x + 1;
    if (y < 0) reach_error();
  }
  return 0;
}
